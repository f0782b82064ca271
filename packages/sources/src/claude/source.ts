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
import { ClaudeReader } from './reader.js';

/** `agent-acompact-*.jsonl`: the compaction run, whose summary the main file repeats (research §1.6). */
export function isCompactionRunFile(path: string): boolean {
  return basename(path).startsWith('agent-acompact-');
}

/** A planned Claude Code file on disk. */
export function claudeFile(path: string): PlannedFile {
  return {
    file: path,
    name: path,
    blocks: () => fileBlocks(path),
    finalLine: 'truncate',
    reader: (sink, shared) => new ClaudeReader(sink, shared.seen, basename(path, '.jsonl')),
  };
}

/** Plans Claude Code files: compaction runs are counted as skipped files, the rest read in the given order. */
export function planClaudeFiles(paths: readonly string[]): SourcePlan {
  const files: PlannedFile[] = [];
  let compactionRuns = 0;
  for (const path of paths) {
    if (isCompactionRunFile(path)) compactionRuns += 1;
    else files.push(claudeFile(path));
  }
  return { files, skippedFiles: compactionRuns > 0 ? { 'acompact-file': compactionRuns } : {} };
}

/**
 * Every Claude Code transcript under `dir` (a project directory, or `~/.claude/projects` itself),
 * walked recursively: session files, old inline sidechains, flat `agent-*.jsonl` and
 * `<session>/subagents/agent-*.jsonl`; compaction runs (`agent-acompact-*`) skipped. A `uuid`
 * read once is not read again in another file.
 */
export function claudeProjectSource(dir: string, options?: AdapterOptions): TranscriptSource {
  return new PlannedTranscriptSource(
    'claude',
    async () => planClaudeFiles(await findJsonlFiles(dir)),
    resolveOptions(options),
  );
}
