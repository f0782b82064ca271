import { cliConfig } from '../config.js';
import type { Command } from 'commander';
import { qwenTokenizer } from '@mem/chunk';
import { ERROR_CODES, MemError, type ErrorCode } from '@mem/core';
import { CONTROLLERS, chooseController, dryRun, ingest, loadStandingQueries, synthesize, type ControllerName, type DryRunReport, type IngestReport } from '@mem/ingest';
import { openEngine, type GlobalOptions } from '../context.js';
import { UsageError } from '../exit.js';
import { writeJson, writeLine, type CliIO } from '../io.js';
import { projectFlag } from '../parse-flags.js';
import { ProgressLine } from '../progress.js';

function controllerFlag(value: string | undefined): ControllerName | undefined {
  if (value === undefined) return undefined;
  if (!(CONTROLLERS as readonly string[]).includes(value)) throw new UsageError(`--controller: expected one of ${CONTROLLERS.join(', ')}, got ${JSON.stringify(value)}`);
  return value as ControllerName;
}

/** What ingest and synthesize both start from: the project's standing queries over its data root. */
function openProjectJob(io: CliIO, command: Command, options: { project: string; controller?: string }) {
  const globals = command.optsWithGlobals<GlobalOptions>();
  const project = projectFlag(options.project);
  const controllerName = controllerFlag(options.controller);
  const engine = openEngine(io, globals);
  const config = loadStandingQueries(engine.paths.queriesDir, project, { config: cliConfig(io, globals) });
  const tokenizer = qwenTokenizer();
  return { project, controllerName, engine, config, tokenizer };
}

export function registerIngest(program: Command, io: CliIO): void {
  program
    .command('ingest')
    .description("read the project's sources chunk by chunk and keep what answers its standing queries (queries/<project>.yaml)")
    .requiredOption('--project <name>', 'project whose standing queries to run')
    .option('--query <id>', 'only this standing query')
    .option('--controller <name>', `gate controller: ${CONTROLLERS.join('|')} (default: openai when MEM_LLM_URL is set, else heuristic)`)
    .option('--dry-run', 'only report what would be read: sources, records, chunks, tokens; no model calls, nothing written')
    .option('--json', 'print the report as JSON')
    .action(async (options: { project: string; query?: string; controller?: string; dryRun?: boolean; json?: boolean }, command: Command) => {
      const { project, controllerName, engine, config, tokenizer } = openProjectJob(io, command, options);
      if (options.dryRun) {
        const report = await dryRun(config, tokenizer);
        if (options.json) writeJson(io.stdout, report);
        else printDryRun(io, report);
        return;
      }
      const controller = chooseController(controllerName, tokenizer, cliConfig(io));
      const progress = new ProgressLine(io.stderr);
      const report = await ingest({
        engine,
        config,
        ...(options.query !== undefined ? { queryId: options.query } : {}),
        controller,
        tokenizer,
        onProgress: (p) => progress.update(`ingest ${project}: ${p.chunks} chunks read, ${p.used} memory updates (${p.source})`),
      });
      progress.done();
      if (options.json) writeJson(io.stdout, report);
      else printIngest(io, report);
      failIfRunFailed(report.queries);
    });

  program
    .command('synthesize')
    .description('the L2 pass: the gated loop over the project\'s current L1 memories with its synthesis question')
    .requiredOption('--project <name>', 'project to synthesise')
    .option('--controller <name>', `gate controller: ${CONTROLLERS.join('|')}`)
    .option('--json', 'print the report as JSON')
    .action(async (options: { project: string; controller?: string; json?: boolean }, command: Command) => {
      const { project, controllerName, engine, config, tokenizer } = openProjectJob(io, command, options);
      const report = await synthesize({ engine, config, controller: chooseController(controllerName, tokenizer, cliConfig(io)), tokenizer });
      if (options.json) {
        writeJson(io.stdout, report);
        return;
      }
      if (!report.started) writeLine(io.stdout, `synthesize ${project}: nothing new (${report.inputs} L1 memories, all read before)`);
      else {
        writeLine(io.stdout, `synthesize ${project}: ${report.chunksSeen} of ${report.inputs} L1 memories read, ${report.chunksUsed} used${report.exited ? ', exit gate fired' : ''}; memory ${report.memory?.tokens ?? 0} tokens`);
      }
      if (report.error) writeLine(io.stdout, `  run ended with an error: ${report.error.message} [${report.error.code}]`);
      failIfRunFailed([report]);
    });
}

/** A run that ended on a controller error makes the command fail (exit 1) after its report. */
function failIfRunFailed(runs: readonly { queryId: string | null; error?: { code: string; message: string } }[]): void {
  const failed = runs.filter((r) => r.error);
  if (failed.length === 0) return;
  const first = failed[0]!.error!;
  throw new MemError(isErrorCode(first.code) ? first.code : 'MODEL_FAILED', `${failed.length} run${failed.length === 1 ? '' : 's'} ended with an error (${failed.map((r) => r.queryId ?? 'synthesis').join(', ')}): ${first.message}`, {
    runs: failed.map((r) => ({ query: r.queryId, error: r.error })),
  });
}

function isErrorCode(code: string): code is ErrorCode {
  return (ERROR_CODES as readonly string[]).includes(code);
}

function printDryRun(io: CliIO, report: DryRunReport): void {
  writeLine(io.stdout, `dry run of ${report.project} (${report.file}); queries: ${report.queries.join(', ')}`);
  for (const source of report.sources) {
    const s = source.stats as unknown as Record<string, unknown>;
    writeLine(io.stdout, `  source ${source.entry}: ${JSON.stringify(s)}`);
  }
  writeLine(io.stdout, `  records: ${report.records.total} (${Object.entries(report.records.byRole).map(([role, n]) => `${role} ${n}`).join(', ')})`);
  writeLine(io.stdout, `  chunks: ${report.chunks}, tokens: ${report.tokens.total} (max ${report.tokens.max} per chunk)`);
  for (const bucket of report.tokens.histogram.buckets) writeLine(io.stdout, `    ${String(bucket.from).padStart(5)}-${String(bucket.to).padEnd(5)} ${'#'.repeat(Math.min(60, bucket.count))} ${bucket.count}`);
  writeLine(io.stdout, '  no model calls were made and nothing was written');
}

/**
 * One line per source that had lines but yielded no record (a wrong kind, a format the reader does
 * not know): why it read nothing, with the commonest unknown line kinds. Empty when none.
 */
function unreadSourceLines(sources: IngestReport['sources']): string[] {
  return sources
    .filter((s) => s.stats.lines > 0 && Object.values(s.stats.records).every((n) => n === 0))
    .map((s) => {
      const top = s.stats.unknown.top.map((k) => `${k.kind} ${k.count}`).join(', ');
      return `  warning: ${s.entry}: no record from ${s.stats.lines} lines (${s.stats.unknown.count} unknown${top === '' ? '' : `: ${top}`}; ${s.stats.invalidJson.count} not JSON)`;
    });
}

function printIngest(io: CliIO, report: IngestReport): void {
  const unread = unreadSourceLines(report.sources);
  for (const line of unread) writeLine(io.stderr, line);
  if (report.appended === 0 && report.chunks === 0 && unread.length > 0) {
    writeLine(io.stdout, `ingest ${report.project} (${report.controller}): nothing read — ${unread.length} of ${report.sources.length} source${report.sources.length === 1 ? '' : 's'} yielded no record (see the warnings above); nothing was written`);
    return;
  }
  if (report.appended === 0 && report.chunks === 0) {
    writeLine(io.stdout, `ingest ${report.project} (${report.controller}): nothing new — every record of its ${report.sources.length} source${report.sources.length === 1 ? '' : 's'} was read before; the memories are in vault/${report.project}/`);
    return;
  }
  writeLine(io.stdout, `ingest ${report.project} (${report.controller}): ${report.chunks} chunks read from ${report.sources.length} source${report.sources.length === 1 ? '' : 's'}, ${report.appended} events appended`);
  writeLine(io.stdout, `  ${'query'.padEnd(28)} ${'seen'.padStart(6)} ${'used'.padStart(6)} ${'rate'.padStart(7)} ${'tokens'.padStart(7)}`);
  for (const q of report.queries) {
    const rate = `${(q.updateRate * 100).toFixed(1)}%`;
    writeLine(io.stdout, `  ${(q.queryId ?? '').padEnd(28)} ${String(q.chunksSeen).padStart(6)} ${String(q.chunksUsed).padStart(6)} ${rate.padStart(7)} ${String(q.memory?.tokens ?? 0).padStart(7)}${q.chunksSkipped > 0 ? `  (${q.chunksSkipped} already seen)` : ''}${q.error ? `  ERROR: ${q.error.message}` : ''}`);
  }
}
