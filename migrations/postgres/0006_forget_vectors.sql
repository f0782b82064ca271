-- Issue 12 §2: a forgotten line leaves every read path, its vectors included. An embedding of
-- the forgotten text is not the text, but embedding-inversion attacks read much of it back, so
-- marking the rows not live (0002) is not enough: forget deletes them, both kinds, at every level
-- the line is held, in the transaction that blanks the text. A forgotten line is the row forget
-- blanked (text '' and deleted); no other write leaves a line's text empty.
CREATE FUNCTION {{schema}}.line_forgotten(p_project text, p_level text, p_sha text)
RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT EXISTS (
    SELECT 1 FROM {{schema}}.memory_line l
    WHERE l.project = p_project AND l.level = p_level AND l.sha256 = p_sha
      AND l.text = '' AND l.deleted_at IS NOT NULL)
$$;

-- forget (0002) as before, then the vectors of every refused line (and of the target) deleted.
CREATE OR REPLACE FUNCTION {{schema}}.forget(p_project text, p_target text, p_target_kind text, p_lines text[], p_ts text)
RETURNS void
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  UPDATE {{schema}}.memory_node n SET text = COALESCE((
    SELECT string_agg(r.raw, E'\n' ORDER BY r.i)
    FROM regexp_split_to_table(n.text, E'\n') WITH ORDINALITY AS r(raw, i)
    WHERE NOT EXISTS (
      SELECT 1 FROM {{schema}}.memory_line l
      WHERE l.project = p_project AND l.level = n.level AND l.sha256 = ANY(p_lines) AND l.text <> ''
        AND l.text = regexp_replace(regexp_replace(regexp_replace(r.raw, '^\s+|\s+$', '', 'g'),
                                                   '^([-*+]|[0-9]{1,3}[.)])\s+', ''), '^\s+|\s+$', '', 'g'))), '')
  WHERE n.project = p_project AND n.kind = 'memory' AND (n.level, n.sha256) IN (
    SELECT e.level, e.memory_sha FROM {{schema}}.memory_line_edge e
    WHERE e.project = p_project AND e.line_sha = ANY(p_lines));
  UPDATE {{schema}}.memory_line l SET deleted_at = COALESCE(l.deleted_at, p_ts), text = ''
  WHERE l.project = p_project AND l.sha256 = ANY(p_lines);
  IF p_target_kind = 'memory' THEN
    UPDATE {{schema}}.memory_node n SET deleted_at = COALESCE(n.deleted_at, p_ts), text = ''
    WHERE n.project = p_project AND n.sha256 = p_target AND n.kind = 'memory';
  END IF;
  DELETE FROM {{schema}}.memory_vector v
  WHERE v.project = p_project AND v.level IN ('L1', 'L2') AND v.node_sha = ANY(array_append(p_lines, p_target));
  PERFORM {{schema}}.refresh_lines(p_project, array_append(p_lines, p_target));
END $$;

-- insert_vectors (0004) as before, except that a forgotten line gets no vector, directly or as a
-- successor's copied symptom. Why here and not only in forget: a batch's vectors are written
-- after all its events, so a rebuild whose batch holds both a line and its later forget would
-- otherwise insert the vectors the incremental forget deleted (rebuild == incremental).
CREATE OR REPLACE FUNCTION {{schema}}.insert_vectors(p_project text, p_levels text[], p_shas text[], p_kinds text[], p_embeddings text[])
RETURNS void
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  INSERT INTO {{schema}}.memory_vector (project, level, node_sha, kind, live, embedding)
  SELECT p_project, u.level, u.sha, u.kind, n.deleted_at IS NULL AND n.superseded_by IS NULL, u.embedding::vector
  FROM unnest(p_levels, p_shas, p_kinds, p_embeddings) AS u(level, sha, kind, embedding)
  JOIN {{schema}}.memory_node n ON n.project = p_project AND n.level = u.level AND n.sha256 = u.sha
  WHERE u.level = 'R'
  UNION ALL
  SELECT p_project, u.level, u.sha, u.kind, {{schema}}.line_live(p_project, u.level, u.sha), u.embedding::vector
  FROM unnest(p_levels, p_shas, p_kinds, p_embeddings) AS u(level, sha, kind, embedding)
  WHERE u.level IN ('L1', 'L2') AND NOT {{schema}}.line_forgotten(p_project, u.level, u.sha)
  ON CONFLICT DO NOTHING;
  WITH RECURSIVE successor (level, sha, embedding) AS (
    SELECT s.level, s.sha256, u.embedding
    FROM unnest(p_levels, p_shas, p_kinds, p_embeddings) AS u(level, sha, kind, embedding)
    JOIN {{schema}}.memory_line_successor s ON s.project = p_project AND s.level = u.level AND s.supersedes = u.sha
    WHERE u.kind = 'symptom'
    UNION
    SELECT s.level, s.sha256, successor.embedding FROM successor
    JOIN {{schema}}.memory_line_successor s ON s.project = p_project AND s.level = successor.level AND s.supersedes = successor.sha)
  INSERT INTO {{schema}}.memory_vector (project, level, node_sha, kind, live, embedding)
  SELECT p_project, successor.level, successor.sha, 'symptom', {{schema}}.line_live(p_project, successor.level, successor.sha),
    successor.embedding::vector
  FROM successor
  WHERE NOT {{schema}}.line_forgotten(p_project, successor.level, successor.sha)
  ON CONFLICT DO NOTHING;
END $$;
