-- Issue 15: a line's liveness read in time bounded by the live memories, not by the memory's
-- history. Rows are unchanged; only how they are found.
--
-- Why: refresh_lines ran after every memory event and cost O(history): the planner evaluated
-- line_live for every vector of the project before joining the touched lines, and line_live
-- walked every version of the memory that ever held the line (a line held since the first
-- version has an edge to each). A 100 MB transcript (352 versions of one memory) spent 367 s of
-- a catch-up in it, ~1 s a call and growing; a 1 GB one would not finish.

-- The live memories (the heads: one per standing query and level): line_live's first EXISTS
-- finds them by this instead of by the line's every edge, whatever the statistics say.
CREATE INDEX memory_node_live_memory ON {{schema}}.memory_node (project, level)
  WHERE kind = 'memory' AND superseded_by IS NULL AND deleted_at IS NULL;
-- What a new head superseded: refresh_lines finds it by key instead of scanning the project.
CREATE INDEX memory_node_by_successor ON {{schema}}.memory_node (project, superseded_by)
  WHERE superseded_by IS NOT NULL;

-- As in 0002, except that line_live runs once per touched line, and each vector is updated by its
-- key: with the filter on the UPDATE, the planner (statistics stale mid catch-up, where no
-- ANALYZE has run) evaluated line_live for every vector of the project before the join. A node
-- named in p_shas and a node it superseded are found each by an index, not by one OR.
CREATE OR REPLACE FUNCTION {{schema}}.refresh_lines(p_project text, p_shas text[])
RETURNS void
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  r record;
BEGIN
  FOR r IN
    WITH memories AS (
      SELECT m.level, m.sha256 FROM {{schema}}.memory_node m
      WHERE m.project = p_project AND m.sha256 = ANY(p_shas)
      UNION
      SELECT m.level, m.sha256 FROM {{schema}}.memory_node m
      WHERE m.project = p_project AND m.superseded_by = ANY(p_shas)),
    touched AS (
      SELECT e.level, e.line_sha AS sha FROM {{schema}}.memory_line_edge e
      JOIN memories m ON e.project = p_project AND e.level = m.level AND e.memory_sha = m.sha256
      UNION
      SELECT l.level, l.sha256 FROM {{schema}}.memory_line l WHERE l.project = p_project AND l.sha256 = ANY(p_shas))
    SELECT t.level, t.sha, {{schema}}.line_live(p_project, t.level, t.sha) AS live FROM touched t
  LOOP
    UPDATE {{schema}}.memory_vector v SET live = r.live
    WHERE v.project = p_project AND v.level = r.level AND v.node_sha = r.sha AND v.live IS DISTINCT FROM r.live;
  END LOOP;
END $$;
