import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { GoldSplit, NotesEvalReport, NotesOverall, RouteScore } from '@mem/eval';
import { CONTROLLERS, type ControllerName } from '@mem/ingest/definitions';
import { UsageError } from '../exit.js';
import { writeJson, writeLine, type CliIO } from '../io.js';
import { ProgressLine } from '../progress.js';

/** The gold set's splits and `all`. Why passed in: GOLD_SPLITS comes with @mem/eval, imported on use (see eval.ts). */
function splitFlag(value: string, splits: readonly GoldSplit[]): GoldSplit | 'all' {
  const SPLITS = [...splits, 'all'];
  if (!SPLITS.includes(value))
    throw new UsageError(
      `--split: expected one of ${SPLITS.join(', ')}, got ${JSON.stringify(value)}`,
    );
  return value as GoldSplit | 'all';
}

function controllerFlag(value: string | undefined): ControllerName | undefined {
  if (value === undefined) return undefined;
  if (!(CONTROLLERS as readonly string[]).includes(value))
    throw new UsageError(
      `--controller: expected one of ${CONTROLLERS.join(', ')}, got ${JSON.stringify(value)}`,
    );
  return value as ControllerName;
}

/** `mem eval notes`: gold recall and noise of the notes mem writes from labelled real transcripts. */
export function registerEvalNotes(evaluate: Command, io: CliIO): void {
  evaluate
    .command('notes')
    .description(
      'labelled real transcripts: each gold file ingested and synthesised in a scratch data root; gold recall in the right note and anywhere, noise share, lines per note, update-rate per query',
    )
    .requiredOption('--gold <file>', 'gold set (e.g. packages/eval/gold/transcripts.gold.json)')
    .option(
      '--split <name>',
      'files to run: a split of the gold set (tuning, held-out) or all',
      'all',
    )
    .option(
      '--controller <name>',
      `gate controller: ${CONTROLLERS.join('|')} (default: as mem ingest chooses)`,
    )
    .option(
      '--no-incremental',
      'skip the incremental run (the files as one project, a file a part, synthesised after each)',
    )
    .option('--json', 'print the report as JSON')
    .action(
      async (options: {
        gold: string;
        split: string;
        controller?: string;
        incremental: boolean;
        json?: boolean;
      }) => {
        const [{ GOLD_SPLITS, evalNotes, loadGoldSet }, { qwenTokenizer }, { chooseController }] =
          await Promise.all([import('@mem/eval'), import('@mem/chunk'), import('@mem/ingest')]);
        const split = splitFlag(options.split, GOLD_SPLITS);
        const controllerName = controllerFlag(options.controller);
        const gold = loadGoldSet(resolve(io.cwd, options.gold));
        const tokenizer = qwenTokenizer();
        const progress = new ProgressLine(io.stderr);
        const report = await evalNotes(gold, {
          controller: chooseController(controllerName, tokenizer, io.env),
          synthesisController: chooseController(controllerName, tokenizer, io.env, 'L2'),
          tokenizer,
          split,
          incremental: options.incremental,
          onProgress: (done, total, path) =>
            progress.update(`eval notes: ${done}/${total} files (${path})`),
        });
        progress.done();
        if (options.json) writeJson(io.stdout, report);
        else printNotes(io, report);
      },
    );
}

function printNotes(io: CliIO, report: NotesEvalReport): void {
  const pct = (x: number | null) => (x === null ? '—' : `${(x * 100).toFixed(1)}%`).padStart(7);
  writeLine(
    io.stdout,
    `notes eval: ${report.files.length} gold file${report.files.length === 1 ? '' : 's'} (${report.split}), controller ${report.controller}; labelled by ${report.labelled_by}`,
  );
  writeLine(
    io.stdout,
    `  ${'file'.padEnd(60)} ${'split'.padEnd(8)} ${'note'.padStart(7)} ${'any'.padStart(7)} ${'noise'.padStart(7)} ${'lines/n'.padStart(7)}  update-rate per query`,
  );
  for (const file of report.files) {
    const rates = Object.entries(file.runs)
      .map(([key, run]) => `${key} ${pct(run.update_rate).trim()}`)
      .join(', ');
    writeLine(
      io.stdout,
      `  ${file.path.padEnd(60)} ${file.split.padEnd(8)} ${pct(file.recall_in_note)} ${pct(file.recall_anywhere)} ${pct(file.noise_share)} ${String(file.lines_per_note).padStart(7)}  ${rates}`,
    );
  }
  for (const [name, summary] of Object.entries<NotesOverall>(report.overall)) {
    writeLine(
      io.stdout,
      `  ${`overall ${name}: ${summary.in_note}/${summary.findings} findings in their note, ${summary.anywhere} anywhere, ${summary.noise_lines}/${summary.lines} noise lines`.padEnd(69)} ${pct(summary.recall_in_note)} ${pct(summary.recall_anywhere)} ${pct(summary.noise_share)} ${String(summary.lines_per_note).padStart(7)}`,
    );
  }
  const rates = (
    runs: Record<string, { chunks_used: number; chunks_seen: number; update_rate: number }>,
  ) =>
    Object.entries(runs)
      .map(
        ([key, run]) =>
          `${key} ${run.chunks_used}/${run.chunks_seen} ${pct(run.update_rate).trim()}`,
      )
      .join(', ');
  // Pooled over the split's files (used / seen summed): a one-chunk file is 0 or 100 % alone.
  for (const [name, summary] of Object.entries<NotesOverall>(report.overall))
    writeLine(io.stdout, `  update-rate ${name} (pooled): ${rates(summary.runs)}`);
  for (const [name, summary] of Object.entries<NotesOverall>(report.overall))
    writeLine(
      io.stdout,
      `  update-rate ${name} (pooled over runs of > 1 step): ${rates(summary.runs_multi_step)}`,
    );
  const incremental = report.incremental;
  if (incremental) {
    writeLine(
      io.stdout,
      `  update-rate incremental (one project, ${incremental.parts.length} parts of a file each, synthesised after each): ${rates(incremental.runs)}`,
    );
    writeLine(
      io.stdout,
      `  synthesis per part (updates/steps): ${incremental.parts.map((p) => `${p.updates}/${p.steps}`).join(' ')}; final L2 ${incremental.l2_lines} lines, ${incremental.l2_lines_unbacked} no L1 line says`,
    );
  }
  for (const [name, routing] of Object.entries<RouteScore>(report.routing)) {
    writeLine(
      io.stdout,
      `  routing ${name}: ${routing.routed}/${routing.statements} gold statements routed to their question by the line router ${pct(routing.accuracy)}`,
    );
  }
  writeLine(
    io.stdout,
    '  note: recall of gold findings in the note of their question; any: in any note; noise: lines matching a noise pattern',
  );
  writeLine(
    io.stdout,
    '  update-rate: gate updates / steps read; pooled: over every file (a one-step run is 0 or 100 %, an L2 from empty always updates on its first fill); > 1 step: only files whose run read more than one; incremental: the files ingested into one project a file at a time, the L2 synthesised after each',
  );
}
