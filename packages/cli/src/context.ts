import { Engine, resolveDataRoot } from '@mem/engine';
import { projectorSqlite } from '@mem/projector-sqlite';
import { projectorVault } from '@mem/projector-vault';
import type { CliIO } from './io.js';

/** Global options every command sees. */
export interface GlobalOptions {
  root?: string;
}

/** The composition root: which projections a data root keeps. */
export function openEngine(io: CliIO, globals: GlobalOptions): Engine {
  const { root } = resolveDataRoot(globals.root, io.env, io.cwd);
  return new Engine({ root, projectors: [projectorSqlite, projectorVault] });
}
