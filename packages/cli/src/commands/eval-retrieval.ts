import { resolve } from 'node:path';
import type { Command } from 'commander';
import { isMemError } from '@mem/core';
import type { RetrievalEvalReport, RetrievalSweep } from '@mem/eval';
import { parseFusionWeights, type SignalWeights } from '@mem/query';
import { cliConfig } from '../config.js';
import { UsageError } from '../exit.js';
import { writeJson, writeLine, type CliIO } from '../io.js';
import { positiveIntFlag } from '../parse-flags.js';
import { ProgressLine } from '../progress.js';

function ksFlag(value: string): number[] {
  const ks = value.split(',').map((k) => k.trim());
  if (ks.some((k) => !/^\d+$/.test(k) || Number(k) < 1 || Number(k) > 100))
    throw new UsageError(
      `--k: expected comma-separated integers from 1 to 100, got ${JSON.stringify(value)}`,
    );
  return ks.map(Number);
}

function floorsFlag(value: string | undefined): number[] | undefined {
  if (value === undefined) return undefined;
  const floors = value.split(',').map((f) => f.trim());
  if (floors.some((f) => !/^\d+(\.\d+)?$/.test(f) || Number(f) > 1))
    throw new UsageError(
      `--floor: expected comma-separated similarity floors from 0 to 1, got ${JSON.stringify(value)}`,
    );
  return floors.map(Number);
}

/** `keyword=1,vector_text=0.1;vector_text=1`: settings split by `;`, each in MEM_FUSION_WEIGHTS's syntax. */
function weightsFlag(value: string | undefined): Partial<SignalWeights>[] | undefined {
  if (value === undefined) return undefined;
  try {
    return value.split(';').map((setting) => parseFusionWeights(setting, '--weights'));
  } catch (error) {
    throw new UsageError(isMemError(error) ? error.message : String(error));
  }
}

/** `mem eval retrieval`: LoCoMo recall@k of the real query path beside an FTS5 BM25 baseline. */
export function registerEvalRetrieval(evaluate: Command, io: CliIO): void {
  evaluate
    .command('retrieval')
    .description(
      'LoCoMo: every turn written through the log as a reference node, every question asked through mem query; recall@k of the gold turns beside a plain FTS5 BM25 baseline, and query latency',
    )
    .requiredOption('--locomo <file>', 'path to locomo10.json')
    .option('--k <list>', 'cut-offs, comma-separated (default 5,10,25,50)', '5,10,25,50')
    .option('--limit <n>', 'only the first n questions')
    .option(
      '--floor <list>',
      'sweep vector similarity floors, comma-separated (e.g. 0.4,0.5,0.6): every question asked again under each',
    )
    .option(
      '--weights <list>',
      'sweep fusion weights, settings split by ";" (e.g. "vector_text=0.1;vector_text=1"), crossed with --floor',
    )
    .option(
      '--embed-cache <dir>',
      'keep embeddings in this directory between runs (default: this run only)',
    )
    .option('--json', 'print the report as JSON')
    .action(
      async (options: {
        locomo: string;
        k: string;
        limit?: string;
        floor?: string;
        weights?: string;
        embedCache?: string;
        json?: boolean;
      }) => {
        const ks = ksFlag(options.k);
        const limit = positiveIntFlag(options.limit, '--limit');
        const floors = floorsFlag(options.floor);
        const weights = weightsFlag(options.weights);
        const sweep: RetrievalSweep = {
          ...(floors ? { floors } : {}),
          ...(weights ? { weights } : {}),
        };
        const { evalRetrieval, loadLocomo } = await import('@mem/eval'); // on use: see eval.ts
        const conversations = loadLocomo(resolve(io.cwd, options.locomo));
        const progress = new ProgressLine(io.stderr);
        const report = await evalRetrieval(conversations, {
          config: cliConfig(io),
          ks,
          ...(limit !== undefined ? { limit } : {}),
          sweep,
          ...(options.embedCache !== undefined
            ? { embedCache: resolve(io.cwd, options.embedCache) }
            : {}),
          onProgress: (done, total) =>
            progress.update(`eval retrieval: ${done}/${total} questions`),
        });
        progress.done();
        if (options.json) writeJson(io.stdout, report);
        else printRetrieval(io, report);
      },
    );
}

function printRetrieval(io: CliIO, report: RetrievalEvalReport): void {
  const pct = (x: number | undefined) => (x === undefined ? '—' : (x * 100).toFixed(1)).padStart(6);
  const row = (name: string, recall: Record<string, number>, extra = '') =>
    writeLine(
      io.stdout,
      `  ${name.padEnd(22)} ${report.ks.map((k) => pct(recall[String(k)])).join(' ')}${extra}`,
    );
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  writeLine(
    io.stdout,
    `LoCoMo retrieval: ${plural(report.questions, 'question')} with evidence, ${plural(report.conversations, 'conversation')}, ${plural(report.turns, 'turn')} (${plural(report.nodes, 'distinct node')})`,
  );
  writeLine(
    io.stdout,
    `  mem: signals ${report.stack.signals.join(' + ')}, embedder ${report.stack.embedder ?? 'none'}, reranker ${report.stack.reranker ?? 'none'}, keyword ${report.stack.keyword_strategy}`,
  );
  if (report.tuning)
    writeLine(
      io.stdout,
      `  mem ran at ${setting(report.tuning)} (keyword/vector_text/vector_symptom)`,
    );
  writeLine(
    io.stdout,
    `  ${'recall@k'.padEnd(22)} ${report.ks.map((k) => `@${k}`.padStart(6)).join(' ')}`,
  );
  row(
    'mem',
    report.mem.recall,
    `   p50 ${report.mem.latency_ms.p50} ms, p95 ${report.mem.latency_ms.p95} ms, abstained ${report.mem.abstained}`,
  );
  row(
    'FTS5 BM25 baseline',
    report.baseline_fts5.recall,
    `   p50 ${report.baseline_fts5.latency_ms.p50} ms, p95 ${report.baseline_fts5.latency_ms.p95} ms`,
  );
  row('DRAGON (LoCoMo paper)', report.anchors.dragon_dialog);
  for (const [category, scores] of Object.entries(report.mem.per_category)) {
    row(`mem  cat ${category} (n=${scores.questions})`, scores);
    const base = report.baseline_fts5.per_category[category];
    if (base) row(`fts5 cat ${category}`, base);
  }
  if (report.sweep.length > 0) {
    writeLine(io.stdout, `  sweep (${plural(report.sweep.length, 'setting')}):`);
    const width = Math.max(...report.sweep.map((swept) => setting(swept).length));
    for (const swept of report.sweep) {
      writeLine(
        io.stdout,
        `    ${setting(swept).padEnd(width)} ${report.ks.map((k) => pct(swept.recall[String(k)])).join(' ')}   abstained ${swept.abstained}`,
      );
    }
  }
  writeLine(
    io.stdout,
    '  categories: 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial (LoCoMo paper codes)',
  );
}

/** A floor and weights setting in one short line: `floor 0.45 weights 1/0.1/1` (keyword/vector_text/vector_symptom). */
function setting(tuning: NonNullable<RetrievalEvalReport['tuning']>): string {
  return `floor ${tuning.floor.minSimilarity} weights ${tuning.weights.keyword}/${tuning.weights.vector_text}/${tuning.weights.vector_symptom}`;
}
