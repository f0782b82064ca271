/** The live memory a line belongs to (see ItemStore.lineNote). */
export interface LineNoteRow {
  sha256: string;
  query_id: string | null;
}

/*
 * Decision: the walk starts at the live memories of the level (node_current_memory, a partial
 * index of the unsuperseded memories: one per standing query and the synthesis) and probes
 * line_edge's primary key once for each. Started at the line instead, it read one edge and one
 * memory per step that ever kept the line, so a long-lived line cost more with every step.
 * CROSS JOIN keeps SQLite's planner from reordering the two (test: line-note-sql.int.spec.ts).
 */
export const LINE_NOTE_SQL = `SELECT m.sha256 AS sha256, m.query_id AS query_id
  FROM node m INDEXED BY node_current_memory CROSS JOIN line_edge e
  WHERE m.project = @project AND m.level = @level AND m.kind = 'memory' AND m.superseded_by IS NULL
    AND m.deleted_at IS NULL
    AND e.project = m.project AND e.level = m.level AND e.line_sha = @line AND e.kind = 'memory'
    AND e.target_sha = m.sha256
  ORDER BY m.query_id IS NULL, m.query_id, m.sha256 LIMIT 1`;

/**
 * LINE_NOTE_SQL for many lines in one statement (`@lines`: a JSON array of [project, level,
 * sha256]): the same walk, correlated per line, so each line still starts at the live memories.
 */
export const LINE_NOTES_SQL = `SELECT j.key AS i, m.sha256 AS sha256, m.query_id AS query_id
  FROM json_each(@lines) j JOIN node m ON m.id = (
    SELECT c.id FROM node c INDEXED BY node_current_memory CROSS JOIN line_edge e
    WHERE c.project = json_extract(j.value, '$[0]') AND c.level = json_extract(j.value, '$[1]')
      AND c.kind = 'memory' AND c.superseded_by IS NULL AND c.deleted_at IS NULL
      AND e.project = c.project AND e.level = c.level AND e.line_sha = json_extract(j.value, '$[2]')
      AND e.kind = 'memory' AND e.target_sha = c.sha256
    ORDER BY c.query_id IS NULL, c.query_id, c.sha256 LIMIT 1)
  ORDER BY j.key`;

/**
 * How many memory edges a line may have for LINE_NOTES_BY_LINE_SQL to walk them: past this, a
 * line kept through a long history starts at the live memories instead (LINE_NOTES_SQL).
 */
export const LINE_FIRST_MAX_EDGES = 32;

/**
 * Each line's memory edges, counted up to `@cap` (`@lines` as for LINE_NOTES_SQL): whether the
 * line is short-lived enough to start the walk at its own edges.
 */
export const LINE_MEMORY_EDGES_SQL = `SELECT j.key AS i, (SELECT count(*) FROM (
    SELECT 1 FROM line_edge e
    WHERE e.project = json_extract(j.value, '$[0]') AND e.level = json_extract(j.value, '$[1]')
      AND e.line_sha = json_extract(j.value, '$[2]') AND e.kind = 'memory'
    LIMIT @cap)) AS edges
  FROM json_each(@lines) j ORDER BY j.key`;

/*
 * Decision: LINE_NOTES_SQL's walk costs one probe per live memory of the level for every line.
 * A project with hundreds of standing queries (the 100 k query bench has ~480 per project) pays
 * that for each line of a page, while its lines were kept a few steps each. A line with fewer
 * than LINE_FIRST_MAX_EDGES memory edges is walked from its edges instead (line_edge's key,
 * then node's unique (project, sha256, level, kind) for each), so a page's cost is the lesser
 * of the two walks, bounded by the cap, whatever the store's shape. Same row: the same live
 * memories, the same order (line-note.int.spec.ts compares both walks with noteOf).
 */
export const LINE_NOTES_BY_LINE_SQL = `SELECT j.key AS i, m.sha256 AS sha256, m.query_id AS query_id
  FROM json_each(@lines) j JOIN node m ON m.id = (
    SELECT c.id FROM line_edge e CROSS JOIN node c
    WHERE e.project = json_extract(j.value, '$[0]') AND e.level = json_extract(j.value, '$[1]')
      AND e.line_sha = json_extract(j.value, '$[2]') AND e.kind = 'memory'
      AND c.project = e.project AND c.sha256 = e.target_sha AND c.level = e.level
      AND c.kind = 'memory' AND c.superseded_by IS NULL AND c.deleted_at IS NULL
    ORDER BY c.query_id IS NULL, c.query_id, c.sha256 LIMIT 1)
  ORDER BY j.key`;
