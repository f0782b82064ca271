import { basename } from 'node:path';
import { findJsonlFiles } from '../discover.js';
import { fileBlocks } from '../lines.js';
import { resolveOptions, type AdapterOptions } from '../options.js';
import { PlannedTranscriptSource, type PlannedFile, type TranscriptSource } from '../source.js';
import { CodexReader } from './reader.js';

/** Codex CLI names its session files `rollout-<time>-<id>.jsonl`; anything else in the tree is not one. */
export function isRolloutFile(path: string): boolean {
  return basename(path).startsWith('rollout-');
}

/** A planned Codex rollout file on disk; records are `codex:<session id>` (the file stem until `session_meta`). */
export function codexFile(path: string): PlannedFile {
  return {
    file: path,
    name: path,
    blocks: () => fileBlocks(path),
    finalLine: 'truncate',
    reader: (sink) => new CodexReader(sink, basename(path, '.jsonl')),
  };
}

/** Every rollout under `dir` (`~/.codex/sessions`, walked through its `YYYY/MM/DD` folders, or any folder below). */
export function codexSessionSource(dir: string, options?: AdapterOptions): TranscriptSource {
  return new PlannedTranscriptSource(
    'codex',
    async () => ({
      files: (await findJsonlFiles(dir)).filter(isRolloutFile).map(codexFile),
      skippedFiles: {},
    }),
    resolveOptions(options),
  );
}
