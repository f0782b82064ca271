import { ClaudeReader } from './claude/reader.js';
import { CodexReader } from './codex/reader.js';
import { LoopReader } from './loop/reader.js';
import { resolveOptions, type AdapterOptions } from './options.js';
import { PiReader } from './pi/reader.js';
import type { TranscriptReader } from './reader.js';
import type { RecordSink } from './sink.js';
import {
  PlannedTranscriptSource,
  type SharedState,
  type TranscriptKind,
  type TranscriptSource,
} from './source.js';

/** Options for a transcript held in memory (posted over HTTP, say). */
export interface InMemoryOptions extends AdapterOptions {
  /** Names the transcript in stats and in fallback ids (`pi:<name>`, `loop:<name>`). Default `memory`. */
  name?: string;
  /** Forces every record's provenance source (`http:<ingest id>`); by default the format's own. */
  source?: string;
}

/**
 * A source over one transcript given as a string or bytes, read by the same adapter code as
 * files. The text was posted whole, so a final line without `\n` is parsed (and counted as a
 * truncated tail only if it does not parse). Records carry a line but no file.
 */
export function transcriptFromText(
  input: string | Uint8Array,
  kind: TranscriptKind,
  options: InMemoryOptions = {},
): TranscriptSource {
  const name = options.name ?? 'memory';
  const bytes = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
  return new PlannedTranscriptSource(
    kind,
    async () => ({
      files: [
        {
          file: undefined,
          name,
          blocks: () => [bytes],
          finalLine: 'yield',
          reader: (sink, shared) => readerFor(kind, sink, shared, name, options.source),
        },
      ],
      skippedFiles: {},
    }),
    resolveOptions(options),
  );
}

function readerFor(
  kind: TranscriptKind,
  sink: RecordSink,
  shared: SharedState,
  name: string,
  source: string | undefined,
): TranscriptReader {
  if (kind === 'loop') return new LoopReader(sink, shared.seen, source ?? `loop:${name}`, 'agent');
  const reader =
    kind === 'claude'
      ? new ClaudeReader(sink, shared.seen, name)
      : kind === 'codex'
        ? new CodexReader(sink, name)
        : new PiReader(sink, `pi:${name}`);
  if (source !== undefined) sink.override = { source };
  return reader;
}
