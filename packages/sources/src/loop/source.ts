import { basename } from 'node:path';
import { findJsonlFiles, relativePath } from '../discover.js';
import { fileBlocks } from '../lines.js';
import { resolveOptions, type AdapterOptions } from '../options.js';
import { PlannedTranscriptSource, type PlannedFile, type TranscriptSource } from '../source.js';
import { loopFileIdentity, type LoopFileIdentity } from './identity.js';
import { LoopReader } from './reader.js';

/** A loop artifact on disk and who wrote it. */
export interface LoopArtifact {
  path: string;
  identity: LoopFileIdentity;
}

/** The artifacts under `root`, named from their paths relative to it. */
export function loopArtifactsUnder(root: string, paths: readonly string[]): LoopArtifact[] {
  return paths.map((path) => ({
    path,
    identity: loopFileIdentity(relativePath(root, path), basename(root)),
  }));
}

/** Task, then attempt (numerically when both are numbers), then path: attempts read in the order they ran. */
export function sortLoopArtifacts(artifacts: readonly LoopArtifact[]): LoopArtifact[] {
  return [...artifacts].sort((a, b) => {
    if (a.identity.task !== b.identity.task) return a.identity.task < b.identity.task ? -1 : 1;
    const x = a.identity.attempt;
    const y = b.identity.attempt;
    if (x !== y) {
      const nx = Number(x);
      const ny = Number(y);
      if (Number.isInteger(nx) && Number.isInteger(ny)) return nx - ny;
      return x < y ? -1 : 1;
    }
    return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
  });
}

/** A planned loop artifact; its records are named `loop:<task>/<attempt>`, entries prefixed by the agent. */
export function loopFile({ path, identity }: LoopArtifact): PlannedFile {
  return {
    file: path,
    name: path,
    blocks: () => fileBlocks(path),
    finalLine: 'truncate',
    reader: (sink, shared) =>
      new LoopReader(
        sink,
        shared.seen,
        `loop:${identity.task}/${identity.attempt}`,
        identity.agent,
      ),
  };
}

/** Every loop artifact under `dir` (the artifacts root holding `<TaskId>/` folders, or one task folder). */
export function loopArtifactSource(dir: string, options?: AdapterOptions): TranscriptSource {
  return new PlannedTranscriptSource(
    'loop',
    async () => ({
      files: sortLoopArtifacts(loopArtifactsUnder(dir, await findJsonlFiles(dir))).map(loopFile),
      skippedFiles: {},
    }),
    resolveOptions(options),
  );
}
