import { Engine, leftoverSettingsFile, resolveDataRoot } from '@mem/engine';
import { projectorPgvector } from '@mem/projector-pgvector';
import { projectorSqlite } from '@mem/projector-sqlite';
import { projectorVault } from '@mem/projector-vault';
import { cliConfig } from './config.js';
import { requireDataRoot, requireProjects } from './existence.js';
import type { CliIO } from './io.js';

/** Global options every command sees. */
export interface GlobalOptions {
  root?: string;
}

/** Which projections an engine keeps current: all of them, or the SQLite control store alone (administration). */
export type Projections = 'all' | 'control';

/**
 * The composition root: which projections a data root keeps. The pgvector projection goes to
 * DATABASE_URL when it is set, else to an embedded PGlite under .mem/pg (one process at a time:
 * a second gets CONFLICT naming the holder), with the embedder MEM_EMBED_URL names, else the
 * deterministic hash embedder.
 */
export function openEngine(
  io: CliIO,
  globals: GlobalOptions,
  projections: Projections = 'all',
): Engine {
  const config = cliConfig(io, globals);
  const { root } = resolveDataRoot(config, io.cwd);
  const projectors =
    projections === 'control'
      ? [projectorSqlite]
      : [projectorSqlite, projectorVault, projectorPgvector({ config })];
  const engine = new Engine({ root, projectors });
  const leftover = leftoverSettingsFile(engine.paths.vaultDir);
  if (leftover) {
    io.stderr.write(
      `warning: ${leftover} is no longer read (projection settings live in the log); to keep evidence notes run \`mem rebuild --from-log --emit-evidence-notes\` once, then delete the file\n`,
    );
  }
  return engine;
}

/**
 * The engine of a reading command (verify, query, log show, rebuild): its data root, and each
 * project it names, must exist (NOT_FOUND otherwise). Checked before anything is opened, so a
 * typo creates nothing.
 */
export async function openExistingEngine(
  io: CliIO,
  globals: GlobalOptions,
  projects: readonly string[] = [],
  projections: Projections = 'all',
): Promise<Engine> {
  const engine = openEngine(io, globals, projections);
  requireDataRoot(engine.paths);
  await requireProjects(engine, projects);
  return engine;
}
