import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MemError } from '@mem/core';
import type { ProjectionOptions } from './projector.js';

/** The vault's own settings file: next to the notes it shapes, tracked with them, hidden from Obsidian. */
export const VAULT_SETTINGS = '.mem-settings.json';

/**
 * Projection options shape output (evidence notes on or off), so the live projections, every
 * later catch-up and `mem verify`'s parity rebuild must use the same ones, in every process.
 * They live in the vault (`vault/.mem-settings.json`), not in droppable `.mem/`: dropping the
 * derived state and rebuilding must give the same vault. `mem rebuild --emit-evidence-notes`
 * writes them once the rebuild has succeeded.
 */
export function readProjectionOptions(vaultDir: string): ProjectionOptions {
  const file = join(vaultDir, VAULT_SETTINGS);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { emitEvidenceNotes: false };
    throw new MemError('IO_FAILED', `cannot read ${file}: ${(error as Error).message}`, { file });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new MemError('CONFIG_INVALID', `${file}: not valid JSON; expected {"emitEvidenceNotes": true|false} (or delete the file for the defaults)`, { file });
  }
  const value = (parsed as { emitEvidenceNotes?: unknown } | null)?.emitEvidenceNotes;
  if (value !== undefined && typeof value !== 'boolean') {
    throw new MemError('CONFIG_INVALID', `${file}: emitEvidenceNotes: expected true or false, got ${JSON.stringify(value)}`, { file, field: 'emitEvidenceNotes' });
  }
  return { emitEvidenceNotes: value === true };
}

export function writeProjectionOptions(vaultDir: string, options: ProjectionOptions): void {
  mkdirSync(vaultDir, { recursive: true });
  const file = join(vaultDir, VAULT_SETTINGS);
  writeFileSync(`${file}.tmp`, `${JSON.stringify({ emitEvidenceNotes: options.emitEvidenceNotes === true })}\n`);
  renameSync(`${file}.tmp`, file);
}
