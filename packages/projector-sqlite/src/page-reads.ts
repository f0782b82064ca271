import type Database from 'better-sqlite3';
import {
  LINE_FIRST_MAX_EDGES,
  LINE_MEMORY_EDGES_SQL,
  LINE_NOTES_BY_LINE_SQL,
  LINE_NOTES_SQL,
  type LineNoteRow,
} from './line-note-sql.js';
import type { CitedNode, NodeLevel, NodeRow } from './rows.js';

/** A node as a recall hit names it. */
export interface NodeKey {
  project: string;
  level: NodeLevel;
  sha256: string;
}

/**
 * Reads for a page of rows at once: one statement however many rows (issue 14 §4). A context
 * request read each vector hit and each row's cited chunks one statement at a time.
 */
export interface PageReader {
  /**
   * The node each key names, in key order (undefined where there is none): at L1/L2 the line
   * (see ItemStore.line), else the node at that level that is no line (see ItemStore.node).
   */
  nodesAt(keys: readonly NodeKey[]): (NodeRow | undefined)[];
  /**
   * For each L1/L2 line, the L0 nodes its `parent` line edges name, as citations show them
   * (see ItemStore.citedNode), by target sha; a dangling edge names nothing.
   */
  lineChunks(lines: readonly NodeKey[], maxChars: number | null): CitedNode[][];
  /** ItemStore.lineNote of each L1/L2 line, in line order (undefined where none is live). */
  lineNotes(lines: readonly NodeKey[]): (LineNoteRow | undefined)[];
}

export function pageReader<Raw>(
  db: Database.Database,
  nodeColumns: string,
  toNode: (raw: Raw) => NodeRow,
): PageReader {
  const key = (i: number) => `json_extract(j.value, '$[${i}]')`;
  // The lowest id first when two kinds share a sha at a level, as ItemStore.node's LIMIT 1 reads.
  const nodesAt = db.prepare(`SELECT j.key AS i, ${nodeColumns} FROM json_each(@keys) j
    JOIN node n ON n.project = ${key(0)} AND n.sha256 = ${key(2)} AND n.level = ${key(1)}
      AND (CASE WHEN n.level IN ('L1', 'L2') THEN n.kind = 'line' ELSE n.kind <> 'line' END)
    ORDER BY j.key, n.id`);
  // CROSS JOIN fixes the order: each line's edges by line_edge's key, then each target by
  // node's (project, sha256, level). Left to choose (no statistics, the keys are expressions),
  // the planner walked every L0 node of the project per line: 5.4 ms for 25 lines on the demo
  // (384 nodes), 0.4 ms so; the rows and their order are the same (issue 15 target 3).
  const chunks = db.prepare(`SELECT j.key AS i, n.level, n.sha256, n.source, n.t, n.deleted_at,
      length(n.text) AS text_chars,
      CASE WHEN @maxChars IS NULL THEN n.text ELSE substr(n.text, 1, @maxChars) END AS text
    FROM json_each(@lines) j
    CROSS JOIN line_edge e ON e.project = ${key(0)} AND e.level = ${key(1)} AND e.line_sha = ${key(2)}
      AND e.kind = 'parent'
    CROSS JOIN node n ON n.project = e.project AND n.sha256 = e.target_sha AND n.level = 'L0'
      AND n.kind <> 'line'
    ORDER BY j.key, e.target_sha, n.id`);
  const notes = db.prepare(LINE_NOTES_SQL);
  const notesByLine = db.prepare(LINE_NOTES_BY_LINE_SQL);
  const memoryEdges = db.prepare(LINE_MEMORY_EDGES_SQL);
  const asJson = (keys: readonly NodeKey[]) =>
    JSON.stringify(keys.map((k) => [k.project, k.level, k.sha256]));

  return {
    nodesAt: (keys) => {
      const out: (NodeRow | undefined)[] = keys.map(() => undefined);
      if (keys.length === 0) return out;
      for (const raw of nodesAt.all({ keys: asJson(keys) }) as (Raw & { i: number })[]) {
        const { i, ...row } = raw;
        out[i] ??= toNode(row as Raw);
      }
      return out;
    },
    lineChunks: (lines, maxChars) => {
      const out: CitedNode[][] = lines.map(() => []);
      if (lines.length === 0) return out;
      for (const raw of chunks.all({ lines: asJson(lines), maxChars }) as (CitedNode & {
        i: number;
      })[]) {
        const { i, ...cited } = raw;
        const list = out[i]!;
        if (list[list.length - 1]?.sha256 !== cited.sha256) list.push(cited);
      }
      return out;
    },
    lineNotes: (lines) => {
      const out: (LineNoteRow | undefined)[] = lines.map(() => undefined);
      if (lines.length === 0) return out;
      // Short-lived lines walk their own edges, the rest the live memories (line-note-sql.ts).
      const short: number[] = [];
      const long: number[] = [];
      for (const { i, edges } of memoryEdges.all({
        lines: asJson(lines),
        cap: LINE_FIRST_MAX_EDGES,
      }) as { i: number; edges: number }[])
        (edges < LINE_FIRST_MAX_EDGES ? short : long).push(i);
      for (const [statement, at] of [
        [notesByLine, short],
        [notes, long],
      ] as const) {
        if (at.length === 0) continue;
        const rows = statement.all({ lines: asJson(at.map((i) => lines[i]!)) }) as (LineNoteRow & {
          i: number;
        })[];
        for (const { i, ...note } of rows) out[at[i]!] = note;
      }
      return out;
    },
  };
}
