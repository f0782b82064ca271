import type { PGlite } from '@electric-sql/pglite';
import { quoteIdent, sharedSchemaFor } from '../src/schema/identifiers.js';
import { chainKey, type MemoryChainView } from '../../../test/support/memory-chain.js';

/**
 * The memory-chain state of `project` as the pgvector projection of `stateDir` holds it in `db`
 * (a caller's PGlite: the schema is the state directory's): memory_head, memory_node,
 * memory_edge and memory_tombstone, read by SQL (there is no read API beside vector recall).
 */
export async function pgvectorMemoryChain(
  db: PGlite,
  stateDir: string,
  project: string,
): Promise<MemoryChainView> {
  const s = quoteIdent(sharedSchemaFor(stateDir));
  const heads = await db.query<{ level: string; query_key: string; sha256: string; live: boolean }>(
    `SELECT h.level, h.query_key, h.sha256, n.sha256 IS NOT NULL AND n.deleted_at IS NULL AS live FROM ${s}.memory_head h
     LEFT JOIN ${s}.memory_node n ON n.project = h.project AND n.level = h.level AND n.sha256 = h.sha256
     WHERE h.project = $1 ORDER BY h.level, h.query_key COLLATE "C"`,
    [project],
  );
  const view: MemoryChainView = {
    heads: {},
    current: { L1: [], L2: [] },
    tombstoned: [],
    live: { L1: [], L2: [] },
  };
  for (const head of heads.rows) {
    const parents = await db.query<{ parent_sha: string; parent_level: string }>(
      `SELECT parent_sha, parent_level FROM ${s}.memory_edge WHERE project = $1 AND child_level = $2 AND child_sha = $3 ORDER BY parent_sha COLLATE "C"`,
      [project, head.level, head.sha256],
    );
    view.heads[chainKey(head.level, head.query_key)] = {
      sha256: head.sha256,
      live: head.live,
      parents: Object.fromEntries(parents.rows.map((p) => [p.parent_sha, p.parent_level])),
    };
  }
  const current = await db.query<{ level: 'L1' | 'L2'; sha256: string }>(
    `SELECT level, sha256 FROM ${s}.memory_node WHERE project = $1 AND kind = 'memory' AND superseded_by IS NULL ORDER BY level, sha256 COLLATE "C"`,
    [project],
  );
  for (const node of current.rows) view.current[node.level].push(node.sha256);
  const tombstoned = await db.query<{ target: string }>(
    `SELECT target FROM ${s}.memory_tombstone WHERE project = $1 ORDER BY target COLLATE "C"`,
    [project],
  );
  view.tombstoned = tombstoned.rows.map((r) => r.target);
  // A line is in recall while its text vector is live.
  const live = await db.query<{ level: 'L1' | 'L2'; sha256: string }>(
    `SELECT level, node_sha AS sha256 FROM ${s}.memory_vector WHERE project = $1 AND kind = 'text' AND live AND level IN ('L1', 'L2') ORDER BY level, node_sha COLLATE "C"`,
    [project],
  );
  for (const line of live.rows) view.live[line.level].push(line.sha256);
  return view;
}

/** The items of `project` with a live text vector, each as [node sha, text], by sha (issue 13 §1). */
export async function pgvectorRecallableItems(
  db: PGlite,
  stateDir: string,
  project: string,
): Promise<[string, string][]> {
  const s = quoteIdent(sharedSchemaFor(stateDir));
  const rows = await db.query<{ sha256: string; text: string }>(
    `SELECT i.sha256, ${s}.item_text(i.summary, i.detail) AS text FROM ${s}.memory_item i
     JOIN ${s}.memory_vector v ON v.project = i.project AND v.level = 'I' AND v.node_sha = i.sha256 AND v.kind = 'text' AND v.live
     WHERE i.project = $1 ORDER BY i.sha256 COLLATE "C"`,
    [project],
  );
  return rows.rows.map((r) => [r.sha256, r.text]);
}
