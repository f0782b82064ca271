import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MemError } from '@mem/core';
import type { ProjectionOptions } from './projector.js';

const FILE = 'projection-options.json';

/**
 * Projection options shape output (evidence notes on or off), so the live projections, the
 * next incremental catch-up and `mem verify`'s parity rebuild must all use the same ones.
 * They are remembered under `.mem/` when a rebuild sets them; dropping `.mem/` resets them.
 */
export function readProjectionOptions(stateDir: string, env: NodeJS.ProcessEnv = process.env): ProjectionOptions {
  let stored: ProjectionOptions = {};
  try {
    stored = JSON.parse(readFileSync(join(stateDir, FILE), 'utf8')) as ProjectionOptions;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new MemError('IO_FAILED', `cannot read ${join(stateDir, FILE)}: ${(error as Error).message}`, { file: join(stateDir, FILE) });
    }
  }
  const fromEnv = env['MEM_EMIT_EVIDENCE_NOTES'];
  const emitEvidenceNotes = fromEnv !== undefined ? fromEnv === '1' || fromEnv === 'true' : stored.emitEvidenceNotes === true;
  return { emitEvidenceNotes };
}

export function writeProjectionOptions(stateDir: string, options: ProjectionOptions): void {
  mkdirSync(stateDir, { recursive: true });
  const file = join(stateDir, FILE);
  writeFileSync(`${file}.tmp`, `${JSON.stringify({ emitEvidenceNotes: options.emitEvidenceNotes === true })}\n`);
  renameSync(`${file}.tmp`, file);
}
