-- Issue 12: a correction changes the words, not the evidence. The successor text of a superseded
-- line is a line of its own (memory_line, at each level the old line has), held by the memories
-- that held the old one, with the old line's symptom; this table names the line it replaced, so a
-- later memory that still holds the old line holds its successors too (hold_successors).
CREATE TABLE {{schema}}.memory_line_successor (
  project    TEXT NOT NULL,
  level      TEXT NOT NULL,
  sha256     TEXT NOT NULL,
  supersedes TEXT NOT NULL,
  PRIMARY KEY (project, level, supersedes)
);

-- Run after supersede(): only the winning supersession (the one whose after sha the old line now
-- points to) makes a successor, and an existing line of that text keeps its own row. The old
-- line's symptom vector is copied (the symptom is the same text, embedded once already); returns
-- the levels created: their text vectors are what the shell owes.
CREATE FUNCTION {{schema}}.insert_successor_lines(p_project text, p_target text, p_after text, p_text text, p_seq integer)
RETURNS TABLE (created_level text)
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  RETURN QUERY
  WITH added AS (
    INSERT INTO {{schema}}.memory_line AS l (project, level, sha256, text, symptom, seq, superseded_by, deleted_at)
    SELECT p_project, o.level, p_after, p_text, o.symptom, p_seq, NULL,
      (SELECT tb.ts FROM {{schema}}.memory_tombstone tb WHERE tb.project = p_project AND tb.target = p_after)
    FROM {{schema}}.memory_line o
    WHERE o.project = p_project AND o.sha256 = p_target AND o.superseded_by = p_after AND o.deleted_at IS NULL
    ON CONFLICT (project, level, sha256) DO NOTHING
    RETURNING l.level, l.symptom),
  named AS (
    INSERT INTO {{schema}}.memory_line_successor (project, level, sha256, supersedes)
    SELECT p_project, added.level, p_after, p_target FROM added
    ON CONFLICT DO NOTHING),
  held AS (
    INSERT INTO {{schema}}.memory_line_edge (project, level, line_sha, memory_sha)
    SELECT p_project, e.level, p_after, e.memory_sha FROM {{schema}}.memory_line_edge e
    JOIN added ON added.level = e.level
    WHERE e.project = p_project AND e.line_sha = p_target
    ON CONFLICT DO NOTHING),
  symptom AS (
    INSERT INTO {{schema}}.memory_vector (project, level, node_sha, kind, live, embedding)
    SELECT p_project, v.level, p_after, 'symptom', false, v.embedding FROM {{schema}}.memory_vector v
    JOIN added ON added.level = v.level
    WHERE v.project = p_project AND v.node_sha = p_target AND v.kind = 'symptom'
    ON CONFLICT DO NOTHING)
  SELECT added.level FROM added ORDER BY added.level;
  -- The copied symptom vectors are live as the line is, read once every row above is in.
  PERFORM {{schema}}.refresh_lines(p_project, ARRAY[p_after]);
END $$;

-- A memory that holds a superseded line holds its successors, transitively (a successor
-- superseded in turn hands on to the next): the correction stays live in the chain's next version.
CREATE FUNCTION {{schema}}.hold_successors(p_project text, p_level text, p_memory_sha text, p_shas text[])
RETURNS void
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  WITH RECURSIVE successor (sha) AS (
    SELECT s.sha256 FROM {{schema}}.memory_line_successor s
    WHERE s.project = p_project AND s.level = p_level AND s.supersedes = ANY(p_shas)
    UNION
    SELECT s.sha256 FROM {{schema}}.memory_line_successor s JOIN successor ON s.supersedes = successor.sha
    WHERE s.project = p_project AND s.level = p_level)
  INSERT INTO {{schema}}.memory_line_edge (project, level, line_sha, memory_sha)
  SELECT p_project, p_level, successor.sha, p_memory_sha FROM successor
  ON CONFLICT DO NOTHING;
END $$;

-- insert_vectors (0002) as before, and each symptom vector also for the successors of its line
-- (transitively): a correction applied in the same batch as the memory that brought the symptom
-- finds no vector to copy yet, and a symptom a line gets later is its successors' too.
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
  WHERE u.level IN ('L1', 'L2')
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
  ON CONFLICT DO NOTHING;
END $$;
