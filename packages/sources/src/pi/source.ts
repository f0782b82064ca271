import { basename } from 'node:path';
import { findJsonlFiles } from '../discover.js';
import { fileBlocks } from '../lines.js';
import { resolveOptions, type AdapterOptions } from '../options.js';
import { PlannedTranscriptSource, type PlannedFile, type TranscriptSource } from '../source.js';
import { PiReader } from './reader.js';

/** A planned pi session file on disk; its records are named `pi:<file stem>`. */
export function piFile(path: string): PlannedFile {
  return {
    file: path,
    name: path,
    blocks: () => fileBlocks(path),
    finalLine: 'truncate',
    reader: (sink) => new PiReader(sink, `pi:${basename(path, '.jsonl')}`),
  };
}

/** Every pi session under `dir` (`~/.pi/agent/sessions`, one `--<cwd>--` folder, or a flat `--session-dir`). */
export function piSessionSource(dir: string, options?: AdapterOptions): TranscriptSource {
  return new PlannedTranscriptSource(
    'pi',
    async () => ({ files: (await findJsonlFiles(dir)).map(piFile), skippedFiles: {} }),
    resolveOptions(options),
  );
}
