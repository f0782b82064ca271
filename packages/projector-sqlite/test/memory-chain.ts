import Database from 'better-sqlite3';
import { itemStorePath } from '../src/store-files.js';
import { chainKey, type MemoryChainView } from '../../../test/support/memory-chain.js';

/**
 * The memory-chain state of `project` as the item store at `stateDir` holds it: memory_head,
 * node (superseded_by, deleted_at), edge and tombstone, read by SQL (the store's read API
 * hides tombstoned heads and has no tombstone list).
 */
export function sqliteMemoryChain(stateDir: string, project: string): MemoryChainView {
  const db = new Database(itemStorePath(stateDir), { readonly: true, fileMustExist: true });
  try {
    const heads = db
      .prepare(
        `SELECT h.level, h.query_key, h.sha256, n.sha256 IS NOT NULL AND n.deleted_at IS NULL AS live FROM memory_head h
         LEFT JOIN node n ON n.project = h.project AND n.level = h.level AND n.sha256 = h.sha256
         WHERE h.project = ? ORDER BY h.level, h.query_key`,
      )
      .all(project) as { level: string; query_key: string; sha256: string; live: number }[];
    const edges = db.prepare(
      `SELECT parent_sha, parent_level FROM edge WHERE project = ? AND child_level = ? AND child_sha = ? ORDER BY parent_sha`,
    );
    const view: MemoryChainView = {
      heads: {},
      current: { L1: [], L2: [] },
      tombstoned: [],
      live: { L1: [], L2: [] },
    };
    for (const head of heads) {
      const parents = edges.all(project, head.level, head.sha256) as {
        parent_sha: string;
        parent_level: string;
      }[];
      view.heads[chainKey(head.level, head.query_key)] = {
        sha256: head.sha256,
        live: head.live === 1,
        parents: Object.fromEntries(parents.map((p) => [p.parent_sha, p.parent_level])),
      };
    }
    const current = db
      .prepare(
        `SELECT level, sha256 FROM node WHERE project = ? AND kind = 'memory' AND superseded_by IS NULL ORDER BY level, sha256`,
      )
      .all(project) as { level: 'L1' | 'L2'; sha256: string }[];
    for (const node of current) view.current[node.level].push(node.sha256);
    view.tombstoned = (
      db.prepare(`SELECT target FROM tombstone WHERE project = ? ORDER BY target`).all(project) as {
        target: string;
      }[]
    ).map((r) => r.target);
    const live = db
      .prepare(
        `SELECT level, sha256 FROM node WHERE project = ? AND kind = 'line' AND superseded_by IS NULL AND deleted_at IS NULL ORDER BY level, sha256`,
      )
      .all(project) as { level: 'L1' | 'L2'; sha256: string }[];
    for (const line of live) view.live[line.level].push(line.sha256);
    return view;
  } finally {
    db.close();
  }
}

/**
 * The curated items of `project` that recall may return (issue 13 §1): neither deleted nor
 * archived, each as [node sha, text], by sha. What the pgvector projection must hold a live
 * vector of, with the same text.
 */
export function sqliteRecallableItems(stateDir: string, project: string): [string, string][] {
  const db = new Database(itemStorePath(stateDir), { readonly: true, fileMustExist: true });
  try {
    return (
      db
        .prepare(
          `SELECT n.sha256, n.text FROM item i JOIN node n ON n.id = i.node_id
           WHERE i.project = ? AND i.deleted_at IS NULL AND i.attention <> 'archive' ORDER BY n.sha256`,
        )
        .all(project) as { sha256: string; text: string }[]
    ).map((r) => [r.sha256, r.text]);
  } finally {
    db.close();
  }
}
