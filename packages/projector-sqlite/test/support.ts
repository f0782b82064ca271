import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectStretch, type ProjectedEvent, type ProjectionTarget } from '@mem/engine';
import Database from 'better-sqlite3';
import { projectorSqlite } from '../src/projector.js';
import { canonicalBytes } from '../src/canonical-bytes.js';
import { sealStore } from '../src/seal.js';
import { itemStorePath } from '../src/store-files.js';
import type { ItemFindQuery } from '../src/item-rows.js';
import { chainEvents, type ChainedEvent } from '../../../test/support/events.js';

export { chainEvents, type ChainedEvent };

const FIXTURE = new URL('../../../test/fixtures/extraction-runs.jsonl', import.meta.url);

/** The sample extraction runs (payloads, no envelope). */
export function fixturePayloads(): Record<string, unknown>[] {
  return readFileSync(FIXTURE, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** A fresh temp data root; `cleanup()` removes it. */
export function tempRoot(): { root: string; target: ProjectionTarget; cleanup: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'mem-projector-sqlite-'));
  return {
    root,
    target: { stateDir: join(root, '.mem'), vaultDir: join(root, 'vault'), options: {} },
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

export function projected(events: readonly ChainedEvent[]): ProjectedEvent[] {
  return events.map(({ event, hash }) => ({ event, hash }));
}

/**
 * True when node_fts indexes exactly node's text: FTS5's integrity check with rank 1 also
 * compares the index with the external content table. Opens the file for writing (the check
 * is an INSERT command), so call it after reading the bytes.
 */
export function ftsMatchesNodes(stateDir: string): boolean {
  const db = new Database(itemStorePath(stateDir));
  try {
    db.exec(`INSERT INTO node_fts (node_fts, rank) VALUES ('integrity-check', 1)`);
    return true;
  } catch {
    return false;
  } finally {
    db.close();
  }
}

/** What a store holds: its rows (the digest `mem verify` compares) and its bytes. */
export interface StoreContents {
  digest: Record<string, string>;
  bytes: Buffer;
}

/**
 * The store at `target` as it stands (its digest), then its bytes after a canonical seal:
 * what a rebuild writes. A store caught up in place holds a rebuild's rows in another b-tree
 * layout, so bytes alone compare only after the canonical copy; the digest compares the store
 * as the engine left it.
 */
export async function canonicalContents(target: ProjectionTarget): Promise<StoreContents> {
  const handle = await projectorSqlite.init(target);
  try {
    const digest = await projectorSqlite.digest!(handle);
    await sealStore(handle, projectorSqlite.version, { canonical: true });
    return { digest, bytes: canonicalBytes(itemStorePath(target.stateDir)) };
  } finally {
    await projectorSqlite.close(handle);
  }
}

/** The digest and bytes of a store a rebuild sealed (the digest only reads: the bytes stay). */
export async function rebuiltContents(target: ProjectionTarget): Promise<StoreContents> {
  const bytes = canonicalBytes(itemStorePath(target.stateDir));
  const handle = await projectorSqlite.init(target);
  try {
    return { digest: await projectorSqlite.digest!(handle), bytes };
  } finally {
    await projectorSqlite.close(handle);
  }
}

/**
 * The sealed store of `payloads` (one project's chain), opened read-only, with every statement
 * it prepares recorded: what a read-path test counts (statements that score, sub-queries).
 */
export async function sealedStoreOf(
  target: ProjectionTarget,
  project: string,
  payloads: Record<string, unknown>[],
): Promise<{
  db: Database.Database;
  statements: string[];
  /** The connection's own prepare: a statement the test runs that is not counted. */
  unrecorded: Database.Database['prepare'];
}> {
  const handle = await projectorSqlite.init(target);
  await projectStretch(projectorSqlite, handle, project, projected(chainEvents(project, payloads)));
  await projectorSqlite.seal(handle);
  await projectorSqlite.close(handle);
  const db = new Database(itemStorePath(target.stateDir), { readonly: true });
  const statements: string[] = [];
  const prepare = db.prepare.bind(db);
  db.prepare = (sql: string) => {
    statements.push(sql);
    return prepare(sql);
  };
  return { db, statements, unrecorded: prepare };
}

/**
 * The keyword find the find-* specs start from: `project`'s live items in the default tiers,
 * stale ones held back, unweighted by recency, a page of 10 of 10 candidates, at a fixed clock.
 */
export function baseFind(project: string, phrases: readonly string[]): ItemFindQuery {
  return {
    projects: [project],
    phrases,
    includeDeleted: false,
    attention: ['active', 'reference'],
    recencyWeight: 0,
    includeStale: false,
    now: new Date('2026-03-01T00:00:00Z'),
    limit: 10,
    offset: 0,
    candidates: 10,
    heldBackLimit: 5,
  };
}
