-- Issue 12 §5: a line a person adds to a note in the vault (`line_added`) is a line of its own,
-- held by no memory: it belongs to its note, so a new memory does not retire it, only a
-- correction of its own does. A line is live while a live head holds it, or, held by none
-- (an added line, or the successor of one), while it is neither deleted nor superseded.
CREATE OR REPLACE FUNCTION {{schema}}.line_live(p_project text, p_level text, p_sha text)
RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT EXISTS (
    SELECT 1 FROM {{schema}}.memory_line l
    WHERE l.project = p_project AND l.level = p_level AND l.sha256 = p_sha
      AND l.deleted_at IS NULL AND l.superseded_by IS NULL
      AND (EXISTS (
        SELECT 1 FROM {{schema}}.memory_line_edge e
        JOIN {{schema}}.memory_node m ON m.project = e.project AND m.level = e.level AND m.sha256 = e.memory_sha AND m.kind = 'memory'
        WHERE e.project = l.project AND e.level = l.level AND e.line_sha = l.sha256
          AND m.superseded_by IS NULL AND m.deleted_at IS NULL)
      OR NOT EXISTS (
        SELECT 1 FROM {{schema}}.memory_line_edge e
        WHERE e.project = l.project AND e.level = l.level AND e.line_sha = l.sha256)))
$$;

-- The added line's row (deleted as of a tombstone that already refuses its text); an existing
-- line of that text keeps its own row. Returns the level when created: its text vector is what
-- the shell owes.
CREATE FUNCTION {{schema}}.insert_added_line(p_project text, p_level text, p_sha text, p_text text, p_seq integer)
RETURNS TABLE (created_level text)
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  RETURN QUERY
  INSERT INTO {{schema}}.memory_line AS l (project, level, sha256, text, symptom, seq, superseded_by, deleted_at)
  VALUES (p_project, p_level, p_sha, p_text, NULL, p_seq, NULL,
    (SELECT tb.ts FROM {{schema}}.memory_tombstone tb WHERE tb.project = p_project AND tb.target = p_sha))
  ON CONFLICT (project, level, sha256) DO NOTHING
  RETURNING l.level;
END $$;
