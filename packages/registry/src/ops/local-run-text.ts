import { ERROR_CODES, MemError, type ErrorCode } from '@mem/core';
import type { DryRunOutput, IngestOutput, SynthesizeOutput } from './local-run-output.js';

/*
 * The human-readable reports of `mem ingest` and `mem synthesize`, line for line what the
 * hand-written commands printed before they became registry operations.
 */

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

type SourceStats = DryRunOutput['sources'][number]['stats'];

/** `kind n, kind n` of a count map, in key order; null when it is empty or all zero. */
function countList(counts: Record<string, number>): string | null {
  const listed = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([kind, n]) => `${kind} ${n}`);
  return listed.length > 0 ? listed.join(', ') : null;
}

/**
 * One source's reading in words: what it read, then each thing worth a look that happened
 * (skips, invalid or cut lines, secrets scrubbed...), a line each, only when it happened.
 * Trigger: the stop-32 walk. Why: the text printed the stats object as raw JSON. Outcome:
 * readable lines; `--json` keeps the object whole.
 */
export function sourceStatsLines(entry: string, stats: SourceStats): string[] {
  const lines = [
    `  source ${entry}: ${plural(stats.files, 'file')}, ${plural(stats.lines, 'line')}, ${plural(stats.bytes, 'byte')}; records: ${countList(stats.records) ?? 'none'}`,
  ];
  const note = (label: string, value: string | null) => {
    if (value !== null) lines.push(`    ${label}: ${value}`);
  };
  const sample = (s: { file: string; line: number }[]) =>
    s.length > 0 ? ` (first: ${s[0]!.file}:${s[0]!.line})` : '';
  note('files skipped', countList(stats.filesSkipped));
  note('lines skipped', countList(stats.skipped));
  note(
    'invalid JSON lines',
    stats.invalidJson.count > 0
      ? `${stats.invalidJson.count}${sample(stats.invalidJson.samples)}`
      : null,
  );
  note(
    'truncated tails',
    stats.truncatedTails.count > 0
      ? `${stats.truncatedTails.count}${sample(stats.truncatedTails.samples)}`
      : null,
  );
  note(
    'unknown line kinds',
    stats.unknown.count > 0
      ? `${stats.unknown.count} (${stats.unknown.top.map((k) => `${k.kind} ${k.count}`).join(', ')})`
      : null,
  );
  note('secrets scrubbed', countList(stats.secrets));
  note('records retyped', countList(stats.retyped));
  note('pasted', countList(stats.pasted));
  note('duplicate uuids', stats.duplicateUuids > 0 ? String(stats.duplicateUuids) : null);
  note(
    'glued objects',
    stats.glued.objects > 0
      ? `${stats.glued.objects} in ${plural(stats.glued.lines, 'line')}`
      : null,
  );
  note(
    'tool text cut',
    stats.toolTextCut.count > 0
      ? `${stats.toolTextCut.count} (${stats.toolTextCut.chars} chars)`
      : null,
  );
  note(
    'media',
    stats.media.images + stats.media.documents > 0
      ? `${plural(stats.media.images, 'image')}, ${plural(stats.media.documents, 'document')}, ${plural(stats.media.bytes, 'byte')}`
      : null,
  );
  return lines;
}

/** A dry run: sources, records by role, chunks and a token histogram. */
export function dryRunText(report: DryRunOutput): string {
  const lines = [
    `dry run of ${report.project} (${report.file}); queries: ${report.queries.join(', ')}`,
  ];
  for (const source of report.sources) lines.push(...sourceStatsLines(source.entry, source.stats));
  lines.push(
    `  records: ${report.records.total} (${Object.entries(report.records.byRole)
      .map(([role, n]) => `${role} ${n}`)
      .join(', ')})`,
  );
  lines.push(
    `  chunks: ${report.chunks}, tokens: ${report.tokens.total} (max ${report.tokens.max} per chunk)`,
  );
  for (const bucket of report.tokens.histogram.buckets)
    lines.push(
      `    ${String(bucket.from).padStart(5)}-${String(bucket.to).padEnd(5)} ${'#'.repeat(Math.min(60, bucket.count))} ${bucket.count}`,
    );
  lines.push('  no model calls were made and nothing was written');
  return lines.join('\n');
}

/**
 * One line per source that yielded no record: one that had lines (a wrong kind, a format the
 * reader does not know), with the commonest unknown line kinds; and one that read no file at
 * all (none there, or every file skipped, e.g. Codex sessions of other directories), with the
 * skipped files by reason. Empty when every source yielded a record.
 */
export function unreadSourceLines(report: IngestOutput): string[] {
  return report.sources
    .filter((s) => Object.values(s.stats.records).every((n) => n === 0))
    .filter((s) => s.stats.lines > 0 || s.stats.files === 0)
    .map((s) => {
      if (s.stats.files === 0) {
        const skipped = Object.entries(s.stats.filesSkipped);
        const why =
          skipped.length === 0
            ? 'no transcript file found'
            : `${plural(
                skipped.reduce((n, [, k]) => n + k, 0),
                'file',
              )} skipped: ${skipped.map(([reason, n]) => `${reason} ${n}`).join(', ')}`;
        return `  warning: ${s.entry}: no file read (${why})`;
      }
      const top = s.stats.unknown.top.map((k) => `${k.kind} ${k.count}`).join(', ');
      return `  warning: ${s.entry}: no record from ${s.stats.lines} lines (${s.stats.unknown.count} unknown${top === '' ? '' : `: ${top}`}; ${s.stats.invalidJson.count} not JSON)`;
    });
}

/** An ingest: chunks read and events appended, then one row per standing query; or why nothing was. */
export function ingestText(report: IngestOutput): string {
  const unread = unreadSourceLines(report).length;
  const sources = plural(report.sources.length, 'source');
  if (report.appended === 0 && report.chunks === 0 && unread > 0) {
    return `ingest ${report.project} (${report.controller}): nothing read — ${unread} of ${sources} yielded no record (see the warnings above); nothing was written`;
  }
  if (report.appended === 0 && report.chunks === 0) {
    return `ingest ${report.project} (${report.controller}): nothing new — every record of its ${sources} was read before; the memories are in vault/${report.project}/`;
  }
  const lines = [
    `ingest ${report.project} (${report.controller}): ${report.chunks} chunks read from ${sources}, ${report.appended} events appended`,
  ];
  lines.push(
    `  ${'query'.padEnd(28)} ${'seen'.padStart(6)} ${'used'.padStart(6)} ${'rate'.padStart(7)} ${'tokens'.padStart(7)}`,
  );
  for (const q of report.queries) {
    const rate = `${(q.updateRate * 100).toFixed(1)}%`;
    lines.push(
      `  ${(q.queryId ?? '').padEnd(28)} ${String(q.chunksSeen).padStart(6)} ${String(q.chunksUsed).padStart(6)} ${rate.padStart(7)} ${String(q.memory?.tokens ?? 0).padStart(7)}${q.chunksSkipped > 0 ? `  (${q.chunksSkipped} already seen)` : ''}${q.error ? `  ERROR: ${q.error.message}` : ''}`,
    );
  }
  return lines.join('\n');
}

/** A synthesis: batches of L1 lines read and used, or that none was new; and the error a run ended on. */
export function synthesizeText(report: SynthesizeOutput): string {
  const lines = [
    report.started
      ? `synthesize ${report.project}: ${report.inputs} L1 memor${report.inputs === 1 ? 'y' : 'ies'} read as ${report.chunksSeen} of ${report.steps} batches of lines, ${report.chunksUsed} used (update-rate ${((100 * report.chunksUsed) / Math.max(report.chunksSeen, 1)).toFixed(1)}%)${report.exited ? ', exit gate fired' : ''}; memory ${report.memory?.tokens ?? 0} tokens`
      : `synthesize ${report.project}: nothing new (${report.inputs} L1 memories, all read before)`,
  ];
  if (report.error)
    lines.push(`  run ended with an error: ${report.error.message} [${report.error.code}]`);
  return lines.join('\n');
}

/** A run that ended on a controller error fails the command (after its report), with that error's code. */
export function failedRuns(
  runs: readonly {
    queryId: string | null;
    error?: { code: string; message: string } | undefined;
  }[],
): MemError | null {
  const failed = runs.filter((r) => r.error);
  if (failed.length === 0) return null;
  const first = failed[0]!.error!;
  return new MemError(
    isErrorCode(first.code) ? first.code : 'MODEL_FAILED',
    `${plural(failed.length, 'run')} ended with an error (${failed.map((r) => r.queryId ?? 'synthesis').join(', ')}): ${first.message}`,
    {
      runs: failed.map((r) => ({ query: r.queryId, error: r.error })),
    },
  );
}

function isErrorCode(code: string): code is ErrorCode {
  return (ERROR_CODES as readonly string[]).includes(code);
}
