import { basename } from 'node:path';
import { findJsonlFiles } from '../discover.js';
import { fileBlocks } from '../lines.js';
import { resolveOptions, type AdapterOptions } from '../options.js';
import {
  PlannedTranscriptSource,
  type PlannedFile,
  type SourcePlan,
  type TranscriptSource,
} from '../source.js';
import { CodexReader } from './reader.js';
import { cwdWithin, rolloutSessionCwd } from './session-cwd.js';

/** Which rollouts are the project's. */
export interface CodexFilter {
  /**
   * Only sessions that started in this directory or under it (`session_meta.cwd`); the rest are
   * skipped, counted as `other-cwd`, and a file with no readable `session_meta` as `cwd-unknown`.
   */
  cwd?: string;
}

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

/**
 * Plans rollout files in the given order: all of them, or with `filter.cwd` only those whose
 * session started under it (each file's first line is read to know; nothing else of it).
 */
export async function planCodexFiles(
  paths: readonly string[],
  filter: CodexFilter = {},
): Promise<SourcePlan> {
  const root = filter.cwd;
  if (root === undefined) return { files: paths.map(codexFile), skippedFiles: {} };
  const files: PlannedFile[] = [];
  const skippedFiles: Record<string, number> = {};
  for (const path of paths) {
    const cwd = await rolloutSessionCwd(path);
    const skip = cwd === null ? 'cwd-unknown' : cwdWithin(cwd, root) ? null : 'other-cwd';
    if (skip === null) files.push(codexFile(path));
    else skippedFiles[skip] = (skippedFiles[skip] ?? 0) + 1;
  }
  return { files, skippedFiles };
}

/** Every rollout under `dir` (`~/.codex/sessions`, walked through its `YYYY/MM/DD` folders, or any folder below). */
export function codexSessionSource(
  dir: string,
  options?: AdapterOptions,
  filter: CodexFilter = {},
): TranscriptSource {
  return new PlannedTranscriptSource(
    'codex',
    async () => planCodexFiles((await findJsonlFiles(dir)).filter(isRolloutFile), filter),
    resolveOptions(options),
  );
}
