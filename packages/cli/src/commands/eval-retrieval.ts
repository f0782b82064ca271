import { resolve } from 'node:path';
import type { Command } from 'commander';
import { evalRetrieval, loadLocomo, type RetrievalEvalReport } from '@mem/eval';
import { UsageError } from '../exit.js';
import { writeJson, writeLine, type CliIO } from '../io.js';
import { positiveIntFlag } from '../parse-flags.js';
import { ProgressLine } from '../progress.js';

function ksFlag(value: string): number[] {
  const ks = value.split(',').map((k) => k.trim());
  if (ks.some((k) => !/^\d+$/.test(k) || Number(k) < 1 || Number(k) > 100)) throw new UsageError(`--k: expected comma-separated integers from 1 to 100, got ${JSON.stringify(value)}`);
  return ks.map(Number);
}

/** `mem eval retrieval`: LoCoMo recall@k of the real query path beside an FTS5 BM25 baseline. */
export function registerEvalRetrieval(evaluate: Command, io: CliIO): void {
  evaluate
    .command('retrieval')
    .description('LoCoMo: every turn written through the log as a reference node, every question asked through mem query; recall@k of the gold turns beside a plain FTS5 BM25 baseline, and query latency')
    .requiredOption('--locomo <file>', 'path to locomo10.json')
    .option('--k <list>', 'cut-offs, comma-separated (default 5,10,25,50)', '5,10,25,50')
    .option('--limit <n>', 'only the first n questions')
    .option('--json', 'print the report as JSON')
    .action(async (options: { locomo: string; k: string; limit?: string; json?: boolean }) => {
      const ks = ksFlag(options.k);
      const limit = positiveIntFlag(options.limit, '--limit');
      const conversations = loadLocomo(resolve(io.cwd, options.locomo));
      const progress = new ProgressLine(io.stderr);
      const report = await evalRetrieval(conversations, {
        ks,
        ...(limit !== undefined ? { limit } : {}),
        onProgress: (done, total) => progress.update(`eval retrieval: ${done}/${total} questions`),
      });
      progress.done();
      if (options.json) writeJson(io.stdout, report);
      else printRetrieval(io, report);
    });
}

function printRetrieval(io: CliIO, report: RetrievalEvalReport): void {
  const pct = (x: number | undefined) => (x === undefined ? '—' : (x * 100).toFixed(1)).padStart(6);
  const row = (name: string, recall: Record<string, number>, extra = '') =>
    writeLine(io.stdout, `  ${name.padEnd(22)} ${report.ks.map((k) => pct(recall[String(k)])).join(' ')}${extra}`);
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  writeLine(io.stdout, `LoCoMo retrieval: ${plural(report.questions, 'question')} with evidence, ${plural(report.conversations, 'conversation')}, ${plural(report.turns, 'turn')} (${plural(report.nodes, 'distinct node')})`);
  writeLine(io.stdout, `  mem: signals ${report.stack.signals.join(' + ')}, embedder ${report.stack.embedder ?? 'none'}, reranker ${report.stack.reranker ?? 'none'}, keyword ${report.stack.keyword_strategy}`);
  writeLine(io.stdout, `  ${'recall@k'.padEnd(22)} ${report.ks.map((k) => `@${k}`.padStart(6)).join(' ')}`);
  row('mem', report.mem.recall, `   p50 ${report.mem.latency_ms.p50} ms, p95 ${report.mem.latency_ms.p95} ms, abstained ${report.mem.abstained}`);
  row('FTS5 BM25 baseline', report.baseline_fts5.recall, `   p50 ${report.baseline_fts5.latency_ms.p50} ms, p95 ${report.baseline_fts5.latency_ms.p95} ms`);
  row('DRAGON (LoCoMo paper)', report.anchors.dragon_dialog);
  for (const [category, scores] of Object.entries(report.mem.per_category)) {
    row(`mem  cat ${category} (n=${scores.questions})`, scores);
    const base = report.baseline_fts5.per_category[category];
    if (base) row(`fts5 cat ${category}`, base);
  }
  writeLine(io.stdout, '  categories: 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial (LoCoMo paper codes)');
}
