import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { GateEvalReport, LocomoSplit } from '@mem/eval';
import { registerEvalForget } from './eval-forget.js';
import { registerEvalNotes } from './eval-notes.js';
import { registerEvalRetrieval } from './eval-retrieval.js';
import { registerEvalSignatures } from './eval-signatures.js';
import { writeJson, writeLine, type CliIO } from '../io.js';
import { UsageError } from '../exit.js';
import { positiveIntFlag } from '../parse-flags.js';
import { ProgressLine } from '../progress.js';

export function registerEval(program: Command, io: CliIO): void {
  const evaluate = program
    .command('eval')
    .description(
      'measure mem against public benchmarks and the labelled gold transcripts: gate, forget, notes, retrieval, signatures',
    );

  evaluate
    .command('gate')
    .description(
      'LoCoMo: gate precision/recall/F1 and answer containment of the heuristic, beside always-update and random baselines',
    )
    .requiredOption('--locomo <file>', 'path to locomo10.json')
    .option(
      '--split <name>',
      'conversations to run: a half by conversation id (tuning, held-out) or all',
      'all',
    )
    .option('--limit <n>', 'only the first n questions (of the split)')
    .option(
      '--conversations <ids>',
      'only these conversations of the split, comma-separated sample ids (e.g. conv-26,conv-30)',
    )
    .option('--no-baselines', 'run the heuristic alone, without the always and random baselines')
    .option('--json', 'print the report as JSON')
    .action(async (options: GateFlags) => {
      const limit = positiveIntFlag(options.limit, '--limit');
      const ids = options.conversations?.split(',').map((id) => id.trim());
      if (ids !== undefined && ids.some((id) => id === ''))
        throw new UsageError(
          `--conversations: expected comma-separated sample ids, got ${JSON.stringify(options.conversations)}`,
        );
      // Imported on use: the evaluators' graph (tokenizer, embedder, PGlite) is no other command's.
      const [{ LOCOMO_SPLITS, evalGate, loadLocomo }, { qwenTokenizer }] = await Promise.all([
        import('@mem/eval'),
        import('@mem/chunk'),
      ]);
      const split = locomoSplitFlag(options.split, LOCOMO_SPLITS);
      const conversations = loadLocomo(resolve(io.cwd, options.locomo));
      const progress = new ProgressLine(io.stderr);
      const report = await evalGate(conversations, {
        tokenizer: qwenTokenizer(),
        split,
        ...(limit !== undefined ? { limit } : {}),
        ...(ids !== undefined ? { conversations: ids } : {}),
        baselines: options.baselines,
        onProgress: (done, total, controller) =>
          progress.update(`eval gate: ${controller} ${done}/${total} questions`),
      });
      progress.done();
      if (options.json) writeJson(io.stdout, report);
      else printGate(io, report);
    });

  registerEvalRetrieval(evaluate, io);
  registerEvalNotes(evaluate, io);
  registerEvalForget(evaluate, io);
  registerEvalSignatures(evaluate, io);
}

interface GateFlags {
  locomo: string;
  split: string;
  limit?: string;
  conversations?: string;
  baselines: boolean;
  json?: boolean;
}

function locomoSplitFlag(value: string, splits: readonly LocomoSplit[]): LocomoSplit | 'all' {
  if (value === 'all' || (splits as readonly string[]).includes(value))
    return value as LocomoSplit | 'all';
  throw new UsageError(
    `--split: expected one of ${[...splits, 'all'].join(', ')}, got ${JSON.stringify(value)}`,
  );
}

function printGate(io: CliIO, report: GateEvalReport): void {
  writeLine(
    io.stdout,
    `LoCoMo gate evaluation (${report.split}: ${report.conversations.join(', ')}): ${report.questions} questions (categories 1-4 with evidence), ${report.sessions} session decisions per controller, memory budget ${report.memory_budget} tokens`,
  );
  writeLine(
    io.stdout,
    `  ${'controller'.padEnd(12)} ${'update'.padStart(7)} ${'prec'.padStart(7)} ${'recall'.padStart(7)} ${'F1'.padStart(7)} ${'contain'.padStart(8)}`,
  );
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  for (const [name, s] of Object.entries(report.controllers)) {
    writeLine(
      io.stdout,
      `  ${name.padEnd(12)} ${pct(s.update_rate).padStart(7)} ${pct(s.precision).padStart(7)} ${pct(s.recall).padStart(7)} ${pct(s.f1).padStart(7)} ${pct(s.answer_containment).padStart(8)}`,
    );
  }
  // The legend names the baselines only where they ran (not under --no-baselines).
  if ('always' in report.controllers)
    writeLine(
      io.stdout,
      "  always: update gate always open; random: opens at the heuristic's own rate. Same fold, same budget.",
    );
}
