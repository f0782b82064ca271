import type Database from 'better-sqlite3';
import type { AttentionTier, ItemStatus, ItemType } from '@mem/core';
import { varints } from './keyword-statistics.js';

/*
 * item_fts (migration 0025): each item's text beside its scope, so that a keyword find counts
 * its exact total inside FTS5. Trigger: a keyword query matching most of a large project
 * ("theme loader" over 100 k items). Why: the total joined every node_fts hit to its item to
 * read its project, liveness, tier, type and status (~190 ms of CPU at 100 k hits). Outcome:
 * those five are tokens of the `scope` column and the find's filters terms of its MATCH, so
 * count(*) reads postings only (~10 ms at 100 k hits); the page is still ranked over node_fts.
 *
 * Each scope token ends in a digit, so the porter stemmer leaves it as written; the project's
 * is its name spelt with letters and digits only (x, '.', '_', '-' as xx, xd, xu, xh: one
 * spelling per name).
 *
 * The scope also holds a token per parent of the item (`q`, the parent's id spelt so, `0`).
 * Trigger: a keyword find filtered by a parent of 12 k children (~45 ms CPU p95 at 100 k
 * items), ~19 ms of it listing the children by edge and item lookups to learn their node ids.
 * Outcome: the children of a parent are one token's postings (~4 ms for 12 k: parentDriven in
 * item-reads.ts); a change of item.parent (migration 0034: a relate or unrelate) moves it.
 */

const TIER_CODE: Record<AttentionTier, number> = { active: 1, reference: 2, archive: 3 };
const TYPE_CODE: Record<ItemType, number> = { rule: 1, fact: 2, task: 3, thread: 4, reminder: 5 };
const STATUS_CODE: Record<ItemStatus, number> = {
  proposed: 1,
  open: 2,
  in_progress: 3,
  done: 4,
  dropped: 5,
};

const caseOf = (column: string, codes: Record<string, number>, otherwise: number) =>
  `CASE ${column} ${Object.entries(codes)
    .map(([value, code]) => `WHEN '${value}' THEN ${code}`)
    .join(' ')} ELSE ${otherwise} END`;

/** The scope text of the item row `row` (an alias or new/old in a trigger): what itemScopeMatch's terms match. */
export function itemScopeSql(row: string): string {
  return `'p' || ${speltSql(`${row}.project`)} || '0'
    || ' l' || (${row}.deleted_at IS NULL)
    || ' a' || ${caseOf(`${row}.attention`, TIER_CODE, 0)}
    || ' t' || ${caseOf(`${row}.type`, TYPE_CODE, 0)}
    || ' s' || ${caseOf(`${row}.status`, STATUS_CODE, 0)}`;
}

const speltSql = (name: string) =>
  `replace(replace(replace(replace(${name}, 'x', 'xx'), '.', 'xd'), '_', 'xu'), '-', 'xh')`;

const spelt = (name: string) =>
  name.replace(/[x._-]/g, (c) => ({ x: 'xx', '.': 'xd', _: 'xu', '-': 'xh' })[c]!);

/** The scope token of a project (itemScopeSql's first). */
function projectToken(project: string): string {
  return `p${spelt(project)}0`;
}

/** The scope token of a parent (parentScopeSql's). */
function parentToken(parent: string): string {
  return `q${spelt(parent)}0`;
}

/** The parent token of the item row `row` (' q…0' from item.parent; '' when it has none): the rest of its scope text after itemScopeSql's. */
export function parentScopeSql(row: string): string {
  return `coalesce(' q' || ${speltSql(`${row}.parent`)} || '0', '')`;
}

const anyOf = (tokens: readonly string[]) =>
  `scope : (${tokens.map((t) => `"${t}"`).join(' OR ')})`;

/** What a keyword find filters by that item_fts holds. */
export interface ItemScopeFilter {
  projects: readonly string[];
  /** Live items only (deleted ones too when false). */
  live: boolean;
  attention: readonly AttentionTier[];
  type?: string;
  status?: string;
}

/** A type's or status's token; one no row holds for a value outside the codes (`= @type` matches no row then either). */
const codeOf = (codes: Record<string, number>, value: string) =>
  Object.hasOwn(codes, value) ? codes[value]! : 9;

/** Which of a filter's scope terms every row of item_fts holds (universalScope). */
export interface UniversalScope {
  projects: boolean;
  live: boolean;
  attention: boolean;
}

/**
 * Which of `filter`'s project, liveness and tier terms hold every row of item_fts, so that its
 * MATCH leaves them out. Trigger: the exact total of "theme loader 7" over a 100 k-item project
 * with nothing deleted or archived: ANDing three scope words each held by every row tripled
 * FTS5's walk (~18 → 8 ms CPU). Outcome: each is checked from what holds few rows — the
 * deleted rows (l0), the rows of the tiers left out, and the project's live count kept in
 * item_live_count beside its deleted rows — against item_fts's row count (its averages
 * record); a term any row lacks stays in the MATCH.
 */
export function universalScope(
  prepared: (sql: string) => Database.Statement,
  filter: ItemScopeFilter,
): UniversalScope {
  const count = prepared('SELECT count(*) AS n FROM item_fts WHERE item_fts MATCH @m');
  const matching = (m: string) => (count.get({ m }) as { n: number }).n;
  const rows = itemFtsRowCount(prepared);
  const left = (Object.keys(TIER_CODE) as AttentionTier[]).filter(
    (tier) => !filter.attention.includes(tier),
  );
  const attention = matching(anyOf(['a0', ...left.map((tier) => `a${TIER_CODE[tier]}`)])) === 0;
  const deleted = matching(anyOf(['l0']));
  const live = deleted === 0;
  const projects = anyOf(filter.projects.map(projectToken));
  const liveInProjects = (
    prepared(`SELECT coalesce(sum(c.items), 0) AS n FROM item_live_count c
      WHERE c.project IN (SELECT value FROM json_each(@projects))`).get({
      projects: JSON.stringify(filter.projects),
    }) as { n: number }
  ).n;
  const deletedInProjects = deleted === 0 ? 0 : matching(`${anyOf(['l0'])} AND ${projects}`);
  return { projects: liveInProjects + deletedInProjects === rows, live, attention };
}

/** The rows item_fts holds: the first varint of FTS5's averages record (id 1). */
function itemFtsRowCount(prepared: (sql: string) => Database.Statement): number {
  const row = prepared('SELECT block FROM item_fts_data WHERE id = 1').get() as
    { block: Uint8Array } | undefined;
  return row ? varints(row.block)[0]! : 0;
}

/**
 * The MATCH over item_fts of a keyword match (`text`, an FTS5 expression over node_fts's one
 * column) within `filter`; null when the filter holds nothing (no project or no tier). The
 * terms `universal` names as held by every row are left out: they match every row.
 */
export function itemScopeMatch(
  text: string,
  filter: ItemScopeFilter,
  universal: UniversalScope = { projects: false, live: false, attention: false },
): string | null {
  if (filter.projects.length === 0 || filter.attention.length === 0) return null;
  const terms = [
    `text : (${text})`,
    ...(universal.projects ? [] : [anyOf(filter.projects.map(projectToken))]),
    ...(filter.live && !universal.live ? [anyOf(['l1'])] : []),
    ...(universal.attention ? [] : [anyOf(filter.attention.map((tier) => `a${TIER_CODE[tier]}`))]),
    ...(filter.type !== undefined ? [anyOf([`t${codeOf(TYPE_CODE, filter.type)}`])] : []),
    ...(filter.status !== undefined ? [anyOf([`s${codeOf(STATUS_CODE, filter.status)}`])] : []),
  ];
  return terms.join(' AND ');
}

/**
 * The MATCH over item_fts of every item of `parent` within `filter` (no text term): what a
 * keyword find a parent filter drives lists its children by (parentDriven in item-reads.ts);
 * null when the filter holds nothing. The terms `universal` names are left out (itemScopeMatch).
 */
export function parentScopeMatch(
  parent: string,
  filter: ItemScopeFilter,
  universal?: UniversalScope,
): string | null {
  const scoped = itemScopeMatch('x', filter, universal);
  if (scoped === null) return null;
  return [anyOf([parentToken(parent)]), ...scoped.split(' AND ').slice(1)].join(' AND ');
}

/** Notes the item whose index node id is `nodeId` for the batch's flush; `indexed`: item_fts held it before. */
const NOTE = (nodeId: string, indexed: 0 | 1) =>
  `INSERT INTO temp.item_fts_pending (node_id, indexed) VALUES (${nodeId}, ${indexed}) ON CONFLICT DO NOTHING;`;

/**
 * Keeps item_fts in step with item and node on this connection, TEMP as node_fts's triggers are
 * (fts-triggers.ts) and for the same reasons. What moves an item's entry: its row written or
 * removed, a change of its scope, a new text of its node (an edited summary or detail), a
 * parent set or cleared (item.parent, a relate or unrelate: its parent token). Other item
 * columns (activity, counts) move nothing. As node_fts's, the triggers only note the item (and
 * whether item_fts held it before the batch), and `flushFts` (apply-events.ts; a reset too)
 * re-indexes each noted item once at the end of the batch from its rows as they then are (one FTS5 segment a batch, not one
 * per item: ~4 ms CPU of an add_items of 100 at 100 k items). An item added under a parent is
 * written with it: its insert notes it once, by the shell rather than a trigger (item-births.ts).
 */
export function registerItemFtsTriggers(db: Database.Database): void {
  db.exec(`
    CREATE TEMP TABLE IF NOT EXISTS item_fts_pending (
      node_id INTEGER PRIMARY KEY,
      -- 1 when item_fts held the item before the batch.
      indexed INTEGER NOT NULL
    );
    CREATE TEMP TRIGGER IF NOT EXISTS item_fts_after_delete AFTER DELETE ON main.item BEGIN
      ${NOTE('old.node_id', 1)}
    END;
    CREATE TEMP TRIGGER IF NOT EXISTS item_fts_after_scope
      AFTER UPDATE OF project, node_id, deleted_at, attention, type, status ON main.item
      WHEN old.node_id IS NOT new.node_id OR (${itemScopeSql('old')}) IS NOT (${itemScopeSql('new')}) BEGIN
      ${NOTE('old.node_id', 1)}
      ${NOTE('new.node_id', 0)}
    END;
    CREATE TEMP TRIGGER IF NOT EXISTS item_fts_after_text AFTER UPDATE OF text ON main.node
      WHEN new.kind = 'item' AND old.text IS NOT new.text BEGIN
      ${NOTE('old.id', 1)}
    END;
    CREATE TEMP TRIGGER IF NOT EXISTS item_fts_after_parent AFTER UPDATE OF parent ON main.item
      WHEN old.parent IS NOT new.parent BEGIN ${NOTE('new.node_id', 1)}
    END;`);
}

/**
 * The statements that re-index what item_fts_pending notes: the entries item_fts held
 * removed, each noted item that has a row indexed as it now is (in node id order), the
 * notes emptied. CROSS JOIN keeps the notes the outer loop: left to itself the planner
 * scanned node (100 k rows) for its order.
 */
export const ITEM_FTS_FLUSH_SQL = [
  `DELETE FROM main.item_fts WHERE rowid IN (SELECT node_id FROM temp.item_fts_pending WHERE indexed = 1)`,
  `INSERT INTO main.item_fts (rowid, text, scope)
    SELECT n.id, mem_fts_text(n.text), ${itemScopeSql('i')} || ${parentScopeSql('i')}
    FROM temp.item_fts_pending p CROSS JOIN main.item i ON i.node_id = p.node_id
      CROSS JOIN main.node n ON n.id = i.node_id
    ORDER BY p.node_id`,
  `DELETE FROM temp.item_fts_pending`,
] as const;

/**
 * Indexes every item of `source` (an attached schema name) into `main.item_fts`, in node id
 * order: what a fresh scratch file's item_fts is built from (fts-build.ts), so its shadow rows
 * depend on the rows alone.
 */
export function buildItemFts(db: Database.Database, source: string): void {
  db.exec(`INSERT INTO main.item_fts (rowid, text, scope)
    SELECT n.id, mem_fts_text(n.text), ${itemScopeSql('i')} || ${parentScopeSql('i')}
    FROM ${source}.item i JOIN ${source}.node n ON n.id = i.node_id
    ORDER BY n.id`);
}
