import type { RecordSource, SourceRecord } from '@mem/chunk';
import { isMemError } from '@mem/core';
import { splitLines } from './lines.js';
import type { ResolvedOptions } from './options.js';
import { parseLine } from './parse-line.js';
import type { TranscriptReader } from './reader.js';
import { RecordSink } from './sink.js';
import { StatsCollector, type SourceStats } from './stats.js';
import { UuidSet } from './uuid-set.js';
import type { TranscriptKind } from './kinds.js';

export { TRANSCRIPT_KINDS, type TranscriptKind } from './kinds.js';

/** A `RecordSource` that also reports what it read. */
export interface TranscriptSource extends RecordSource {
  readonly kind: TranscriptKind;
  /** What the current (or last) iteration has read so far: plain JSON, keys sorted. Each iteration starts from zero. */
  stats(): SourceStats;
}

/** State shared by the files of one source: uuids already read (Claude dedup spans files). */
export interface SharedState {
  seen: UuidSet;
}

/** One input a source will read. */
export interface PlannedFile {
  /** The path records cite; undefined for an in-memory transcript. */
  file: string | undefined;
  /** How stats name it (the path, or the in-memory name). */
  name: string;
  blocks: () => AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
  /** `truncate` for files on disk (maybe still being written), `yield` for a transcript posted whole. */
  finalLine: 'truncate' | 'yield';
  reader: (sink: RecordSink, shared: SharedState) => TranscriptReader;
}

/** What a source will read, worked out when iteration starts (so a new file is seen next time). */
export interface SourcePlan {
  files: PlannedFile[];
  /** Files found and deliberately not read, by reason. */
  skippedFiles: Record<string, number>;
}

/** A source over planned files, read one after another, line by line. */
export class PlannedTranscriptSource implements TranscriptSource {
  private collector = new StatsCollector();

  constructor(
    readonly kind: TranscriptKind,
    private readonly plan: () => Promise<SourcePlan>,
    private readonly options: ResolvedOptions,
  ) {}

  stats(): SourceStats {
    return this.collector.snapshot();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<SourceRecord> {
    const stats = new StatsCollector();
    this.collector = stats;
    const plan = await this.plan();
    for (const [reason, n] of Object.entries(plan.skippedFiles))
      for (let i = 0; i < n; i++) stats.skipFile(reason);
    const shared: SharedState = { seen: new UuidSet() };
    for (const file of plan.files) yield* readPlannedFile(file, stats, this.options, shared);
  }
}

async function* readPlannedFile(
  planned: PlannedFile,
  stats: StatsCollector,
  options: ResolvedOptions,
  shared: SharedState,
): AsyncGenerator<SourceRecord> {
  const sink = new RecordSink(stats, options, planned.file);
  const reader = planned.reader(sink, shared);
  stats.files += 1;
  const lines = splitLines(planned.blocks(), planned.name, stats, {
    maxLineBytes: options.maxLineBytes,
    finalLine: planned.finalLine,
  });
  try {
    for await (const line of lines) {
      if (BLANK.test(line.text)) {
        stats.skip('blank-line');
        continue;
      }
      const parsed = parseLine(line.text);
      if (parsed.invalid) {
        // An unterminated final line that does not parse was cut off, not corrupt.
        if (!line.terminated && parsed.values.length === 0)
          stats.truncatedTail(
            { file: planned.name, line: line.line },
            Buffer.byteLength(line.text),
          );
        else stats.invalidJson({ file: planned.name, line: line.line });
      }
      if (parsed.glued) stats.gluedLine(parsed.values.length);
      for (const value of parsed.values) guarded(stats, () => reader.entry(value, line.line));
      if (sink.queue.length > 0) yield* sink.queue.splice(0);
    }
  } catch (error) {
    // Trigger: the file vanished or failed mid-read. Outcome: counted; what was read stays read.
    if (!isMemError(error)) throw error;
    stats.skipFile('unreadable');
  }
  guarded(stats, () => reader.finish());
  if (sink.queue.length > 0) yield* sink.queue.splice(0);
}

const BLANK = /^\s*$/u;

/**
 * Runs one entry through its reader. Trigger: a shape no reader anticipated makes it throw.
 * Why: one line must never fail a file. Outcome: the entry is skipped and counted `malformed`.
 */
function guarded(stats: StatsCollector, run: () => void): void {
  try {
    run();
  } catch {
    stats.skip('malformed');
  }
}
