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
