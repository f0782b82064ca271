import { Engine, leftoverSettingsFile, resolveDataRoot, type Projector } from '@mem/engine';
import { projectorSqlite } from '@mem/projector-sqlite';
import { cliConfig } from './config.js';
import { refuseFileRoot, requireDataRoot, requireProjects } from './existence.js';
import type { CliIO } from './io.js';

/** Global options every command sees. */
export interface GlobalOptions {
  root?: string;
}

/**
 * Which projections an engine keeps current: all of them, those a reading command reads
 * (`stores`: SQLite and the vault, not pgvector, which only a query reads and which every
 * query catches up first), the SQLite control store alone (administration), or none (a
 * command that reads the log alone, e.g. `mem log show`).
 */
export type Projections = 'all' | 'stores' | 'control' | 'log';

/**
 * The projectors of `projections`. Why the vault and pgvector ones are imported here, on
 * demand: their module graphs (gray-matter; PGlite, the embedder) are most of a cold start,
 * and a command that keeps only SQLite current must not pay for them (issue 15, target 6).
 */
async function projectorsFor(
  projections: Projections,
  config: ReturnType<typeof cliConfig>,
): Promise<Projector[]> {
  if (projections === 'log') return [];
  if (projections === 'control') return [projectorSqlite];
  const { projectorVault } = await import('@mem/projector-vault');
  if (projections === 'stores') return [projectorSqlite, projectorVault];
  const { projectorPgvector } = await import('@mem/projector-pgvector');
  return [projectorSqlite, projectorVault, projectorPgvector({ config })];
}

/**
 * The composition root: which projections a data root keeps. The pgvector projection goes to
 * DATABASE_URL when it is set, else to an embedded PGlite under .mem/pg (one process at a time:
 * a second gets CONFLICT naming the holder), with the embedder MEM_EMBED_URL names, else the
 * deterministic hash embedder.
 */
export async function openEngine(
  io: CliIO,
  globals: GlobalOptions,
  projections: Projections = 'all',
): Promise<Engine> {
  const config = cliConfig(io, globals);
  const { root } = resolveDataRoot(config, io.cwd);
  refuseFileRoot(root);
  const engine = new Engine({ root, projectors: await projectorsFor(projections, config) });
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
  const engine = await openEngine(io, globals, projections);
  requireDataRoot(engine.paths);
  await requireProjects(engine, projects);
  return engine;
}
