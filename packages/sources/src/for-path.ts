import { dirname } from 'node:path';
import { MemError } from '@mem/core';
import { planClaudeFiles } from './claude/source.js';
import { planCodexFiles, isRolloutFile, type CodexFilter } from './codex/source.js';
import { findJsonlFiles, pathKind, sortPaths } from './discover.js';
import {
  loopArtifactsUnder,
  loopFile,
  sortLoopArtifacts,
  type LoopArtifact,
} from './loop/source.js';
import { resolveOptions, type AdapterOptions } from './options.js';
import { piFile } from './pi/source.js';
import {
  PlannedTranscriptSource,
  TRANSCRIPT_KINDS,
  type SourcePlan,
  type TranscriptKind,
  type TranscriptSource,
} from './source.js';

/**
 * A source of `kind` over paths (already glob-expanded): a directory is walked like the
 * directory sources do, a file is read as is. Files are read in a stable sorted order, each
 * once. A missing path fails with NOT_FOUND when iteration starts; an unknown kind, or a
 * `filter.cwd` on a kind other than codex, fails now with INVALID_INPUT.
 */
export function sourceForPath(
  paths: string | readonly string[],
  kind: TranscriptKind,
  options?: AdapterOptions,
  filter: CodexFilter = {},
): TranscriptSource {
  if (!(TRANSCRIPT_KINDS as readonly string[]).includes(kind)) {
    throw new MemError(
      'INVALID_INPUT',
      `unknown transcript kind ${JSON.stringify(kind)}: expected one of ${TRANSCRIPT_KINDS.join(', ')}`,
      {
        field: 'kind',
        kind,
      },
    );
  }
  if (filter.cwd !== undefined && kind !== 'codex') {
    throw new MemError(
      'INVALID_INPUT',
      `a cwd filter applies only to codex sources (${kind} files are already one project's)`,
      { field: 'cwd', kind },
    );
  }
  const list = typeof paths === 'string' ? [paths] : [...paths];
  return new PlannedTranscriptSource(
    kind,
    () => planPaths(list, kind, filter),
    resolveOptions(options),
  );
}

async function planPaths(
  paths: readonly string[],
  kind: TranscriptKind,
  filter: CodexFilter,
): Promise<SourcePlan> {
  const files: string[] = [];
  const loop: LoopArtifact[] = [];
  for (const path of paths) {
    const what = await pathKind(path);
    if (what === 'missing')
      throw new MemError('NOT_FOUND', `transcript path not found: ${path}`, { path });
    if (what === 'other')
      throw new MemError('INVALID_INPUT', `not a file or directory: ${path}`, { path });
    const walked = what === 'directory' ? await findJsonlFiles(path) : [path];
    // A Codex tree holds other JSONL (history.jsonl); a file named alone is read whatever its name.
    const found = kind === 'codex' && what === 'directory' ? walked.filter(isRolloutFile) : walked;
    if (kind === 'loop') {
      // A file given alone is named as if its grandparent were the artifacts root: `<TaskId>/<file>`.
      loop.push(...loopArtifactsUnder(what === 'directory' ? path : dirname(dirname(path)), found));
    } else files.push(...found);
  }
  if (kind === 'claude') return planClaudeFiles(sortPaths(files));
  if (kind === 'pi') return { files: sortPaths(files).map(piFile), skippedFiles: {} };
  if (kind === 'codex') return planCodexFiles(sortPaths(files), filter);
  const unique = [...new Map(loop.map((a) => [a.path, a])).values()];
  return { files: sortLoopArtifacts(unique).map(loopFile), skippedFiles: {} };
}
