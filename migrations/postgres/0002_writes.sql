-- pgvector projection: the writes events plan, as functions of the projection's schema.
--
-- Why functions: PL/pgSQL plans each statement once per session and reuses the plan, while a
-- statement sent by the client is planned on every call. Planning dominated: the chain update
-- below took 7 ms to plan and 0.6 ms to run in PGlite, per memory event. force_generic_plan:
-- otherwise the first five calls of a session are planned anew for their parameter values,
-- and a short catch-up is all first calls; none of these lookups has a skew worth a custom plan.
--
-- Every lookup stays inside the event's project: a project's rows depend on its own log only,
-- whatever order projects are applied in. Where a write changes whether a node is live, it
-- updates its vectors' `live` in the same call.

-- First occurrence of a (project, level, sha256) wins; returns the nodes really created (they
-- get vectors). A node's query comes from its run; a tombstone that came first marks it deleted.
CREATE FUNCTION {{schema}}.insert_nodes(
  p_project text, p_levels text[], p_shas text[], p_kinds text[], p_run_ids text[], p_ts_steps integer[],
  p_sources text[], p_texts text[], p_symptoms text[], p_seqs integer[], p_stamps text[])
RETURNS TABLE (created_level text, created_sha text)
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  RETURN QUERY
  INSERT INTO {{schema}}.memory_node AS n (project, level, sha256, kind, query_id, run_id, t, source, text, symptom, seq, created_ts, superseded_by, deleted_at)
  SELECT p_project, u.level, u.sha, u.kind,
    (SELECT r.query_id FROM {{schema}}.memory_run r WHERE r.project = p_project AND r.run_id = u.run_id),
    u.run_id, u.step, u.source, u.body, u.symptom, u.seq, u.stamp, NULL,
    (SELECT tb.ts FROM {{schema}}.memory_tombstone tb WHERE tb.project = p_project AND tb.target = u.sha)
  FROM unnest(p_levels, p_shas, p_kinds, p_run_ids, p_ts_steps, p_sources, p_texts, p_symptoms, p_seqs, p_stamps)
    AS u(level, sha, kind, run_id, step, source, body, symptom, seq, stamp)
  ON CONFLICT (project, level, sha256) DO NOTHING
  RETURNING n.level, n.sha256;
END $$;

-- A new memory replaces the head of its query's chain (same project, level and query; the L2
-- synthesis is query ''): that node is superseded, with why, unless it is still the head of
-- another query's chain. A memory whose text comes back is current again. Memories have no
-- vectors (their lines do): refresh_lines settles those after the chain moved.
CREATE FUNCTION {{schema}}.advance_chain(p_project text, p_level text, p_run_id text, p_sha text, p_seq integer)
RETURNS void
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  chain_query text;
  old_head text;
  retired bigint;
BEGIN
  SELECT r.query_id INTO chain_query FROM {{schema}}.memory_run r WHERE r.project = p_project AND r.run_id = p_run_id;
  SELECT h.sha256 INTO old_head FROM {{schema}}.memory_head h
  WHERE h.project = p_project AND h.level = p_level AND h.query_key = COALESCE(chain_query, '');

  IF old_head IS NOT NULL AND old_head <> p_sha AND NOT EXISTS (
    SELECT 1 FROM {{schema}}.memory_head h
    WHERE h.project = p_project AND h.level = p_level AND h.sha256 = old_head AND h.query_key <> COALESCE(chain_query, '')
  ) THEN
    WITH old AS (
      UPDATE {{schema}}.memory_node n SET superseded_by = p_sha
      WHERE n.project = p_project AND n.level = p_level AND n.sha256 = old_head AND n.kind = 'memory' AND n.superseded_by IS NULL
      RETURNING n.sha256),
    history AS (
      INSERT INTO {{schema}}.memory_supersede (project, level, old_sha, new_sha, reason, seq)
      SELECT p_project, p_level, old.sha256, p_sha,
        'replaced by a newer ' || p_level || ' memory of ' || COALESCE('query ' || chain_query, 'the project synthesis'), p_seq
      FROM old
      ON CONFLICT DO NOTHING)
    SELECT count(*) INTO retired FROM old;
  END IF;

  INSERT INTO {{schema}}.memory_head (project, level, query_key, sha256, seq)
  VALUES (p_project, p_level, COALESCE(chain_query, ''), p_sha, p_seq)
  ON CONFLICT (project, level, query_key) DO UPDATE SET sha256 = excluded.sha256, seq = excluded.seq;

  UPDATE {{schema}}.memory_node n SET superseded_by = NULL
  WHERE n.project = p_project AND n.level = p_level AND n.sha256 = p_sha AND n.superseded_by IS NOT NULL;
END $$;

-- A parent's level is resolved now: the preferred level if a node has it, else any level the sha
-- exists at (e.g. R, which mem verify flags), else the preferred level, dangling.
CREATE FUNCTION {{schema}}.insert_edges(p_project text, p_child_level text, p_child_sha text, p_preferred text, p_parents text[])
RETURNS void
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  INSERT INTO {{schema}}.memory_edge (project, child_level, child_sha, parent_level, parent_sha)
  SELECT p_project, p_child_level, p_child_sha,
    COALESCE(
      (SELECT n.level FROM {{schema}}.memory_node n WHERE n.project = p_project AND n.sha256 = p.sha
       ORDER BY n.level = p_preferred DESC, n.level COLLATE "C" LIMIT 1),
      p_preferred),
    p.sha
  FROM unnest(p_parents) AS p(sha)
  ON CONFLICT DO NOTHING;
END $$;

-- The first tombstone of a sha wins; deleted_at is its ts on every node of that sha.
CREATE FUNCTION {{schema}}.apply_tombstone(p_project text, p_target text, p_reason text, p_seq integer, p_ts text)
RETURNS void
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  stamp text;
BEGIN
  INSERT INTO {{schema}}.memory_tombstone (project, target, reason, seq, ts) VALUES (p_project, p_target, p_reason, p_seq, p_ts)
  ON CONFLICT DO NOTHING;
  SELECT tb.ts INTO stamp FROM {{schema}}.memory_tombstone tb WHERE tb.project = p_project AND tb.target = p_target;
  WITH hit AS (
    UPDATE {{schema}}.memory_node n SET deleted_at = stamp
    WHERE n.project = p_project AND n.sha256 = p_target AND n.deleted_at IS NULL
    RETURNING n.level)
  UPDATE {{schema}}.memory_vector v SET live = false FROM hit
  WHERE v.project = p_project AND v.node_sha = p_target AND v.level = hit.level AND hit.level = 'R';
  -- A line of that sha is deleted too; the lines of a tombstoned memory follow in refresh_lines.
  UPDATE {{schema}}.memory_line l SET deleted_at = stamp
  WHERE l.project = p_project AND l.sha256 = p_target AND l.deleted_at IS NULL;
END $$;

-- The lines of one memory: the first memory holding a line writes its row (a tombstone that came
-- first marks it deleted); every holder gets an edge; the first symptom among its holders is
-- the line's. Returns the lines whose vectors this call owes: created (their text, and the
-- symptom if this memory has one), or existing lines that got their symptom only now.
CREATE FUNCTION {{schema}}.insert_lines(
  p_project text, p_level text, p_memory_sha text, p_shas text[], p_texts text[], p_symptom text, p_seq integer)
RETURNS TABLE (line_sha text, created boolean)
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  INSERT INTO {{schema}}.memory_line_edge (project, level, line_sha, memory_sha)
  SELECT p_project, p_level, u.sha, p_memory_sha FROM unnest(p_shas) AS u(sha)
  ON CONFLICT DO NOTHING;
  -- One snapshot for both: the update sees only rows from before this call, the insert adds the rest.
  RETURN QUERY
  WITH added AS (
    INSERT INTO {{schema}}.memory_line AS l (project, level, sha256, text, symptom, seq, superseded_by, deleted_at)
    SELECT p_project, p_level, u.sha, u.body, p_symptom, p_seq, NULL,
      (SELECT tb.ts FROM {{schema}}.memory_tombstone tb WHERE tb.project = p_project AND tb.target = u.sha)
    FROM unnest(p_shas, p_texts) AS u(sha, body)
    ON CONFLICT (project, level, sha256) DO NOTHING
    RETURNING l.sha256),
  symptom AS (
    UPDATE {{schema}}.memory_line l SET symptom = p_symptom
    WHERE p_symptom IS NOT NULL AND l.project = p_project AND l.level = p_level AND l.sha256 = ANY(p_shas) AND l.symptom IS NULL
    RETURNING l.sha256)
  SELECT added.sha256, true FROM added
  UNION ALL
  SELECT symptom.sha256, false FROM symptom;
END $$;

-- Whether a line is live: not deleted, not superseded itself, and held by a memory that is a
-- live head (neither superseded nor deleted).
CREATE FUNCTION {{schema}}.line_live(p_project text, p_level text, p_sha text)
RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT EXISTS (
    SELECT 1 FROM {{schema}}.memory_line l
    WHERE l.project = p_project AND l.level = p_level AND l.sha256 = p_sha
      AND l.deleted_at IS NULL AND l.superseded_by IS NULL
      AND EXISTS (
        SELECT 1 FROM {{schema}}.memory_line_edge e
        JOIN {{schema}}.memory_node m ON m.project = e.project AND m.level = e.level AND m.sha256 = e.memory_sha AND m.kind = 'memory'
        WHERE e.project = l.project AND e.level = l.level AND e.line_sha = l.sha256
          AND m.superseded_by IS NULL AND m.deleted_at IS NULL))
$$;

-- Re-reads the liveness of the line vectors an event may have changed: the lines named in
-- p_shas, and every line of a memory named there or superseded by one named there (a new head
-- retires what it replaced). Run after a memory's chain moved, a tombstone and a correction.
CREATE FUNCTION {{schema}}.refresh_lines(p_project text, p_shas text[])
RETURNS void
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  WITH touched AS (
    SELECT e.level, e.line_sha AS sha FROM {{schema}}.memory_line_edge e
    JOIN {{schema}}.memory_node m ON m.project = e.project AND m.level = e.level AND m.sha256 = e.memory_sha
    WHERE e.project = p_project AND (m.sha256 = ANY(p_shas) OR m.superseded_by = ANY(p_shas))
    UNION
    SELECT l.level, l.sha256 FROM {{schema}}.memory_line l WHERE l.project = p_project AND l.sha256 = ANY(p_shas))
  UPDATE {{schema}}.memory_vector v SET live = {{schema}}.line_live(p_project, v.level, v.node_sha)
  FROM touched t
  WHERE v.project = p_project AND v.level = t.level AND v.node_sha = t.sha
    AND v.live IS DISTINCT FROM {{schema}}.line_live(p_project, v.level, v.node_sha);
END $$;

-- A forgotten event (issue 12): each line it refuses is deleted at every level it is held, and a
-- forgotten whole memory is deleted as of the event unless a tombstone deleted it first.
CREATE FUNCTION {{schema}}.forget(p_project text, p_target text, p_target_kind text, p_lines text[], p_ts text)
RETURNS void
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  -- No read-side row keeps the forgotten text (the log does, until a purge): each memory holding
  -- a forgotten line keeps its other raw lines, matched as splitMemoryLines splits (trimmed, list
  -- marker off) against the line's stored text, which is blanked after.
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
  PERFORM {{schema}}.refresh_lines(p_project, array_append(p_lines, p_target));
END $$;

-- A superseded event (issue 12): the old points to the new, on the line's row or, for a whole
-- memory, on its node (which retires the lines it alone held live).
CREATE FUNCTION {{schema}}.supersede(p_project text, p_target text, p_target_kind text, p_after text)
RETURNS void
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  IF p_target_kind = 'memory' THEN
    UPDATE {{schema}}.memory_node n SET superseded_by = p_after
    WHERE n.project = p_project AND n.sha256 = p_target AND n.kind = 'memory' AND n.superseded_by IS NULL;
  ELSE
    UPDATE {{schema}}.memory_line l SET superseded_by = p_after
    WHERE l.project = p_project AND l.sha256 = p_target AND l.superseded_by IS NULL;
  END IF;
  PERFORM {{schema}}.refresh_lines(p_project, ARRAY[p_target]);
END $$;

-- A fold over the log: a batch's occurrences of each signature, already summed in log order by
-- the shell (one row per sig_sha): the count adds up, the first occurrence ever keeps
-- first_seen, the latest names the node, the raw line and last_seen.
CREATE FUNCTION {{schema}}.fold_signatures(
  p_project text, p_sig_shas text[], p_signatures text[], p_tools text[], p_raws text[], p_node_levels text[], p_node_shas text[],
  p_counts integer[], p_first_seen text[], p_last_seen text[])
RETURNS void
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  INSERT INTO {{schema}}.failure_signature AS f (project, sig_sha, signature, tool, raw, node_level, node_sha, seen_count, first_seen, last_seen)
  SELECT p_project, u.sig_sha, u.signature, u.tool, u.raw, u.node_level, u.node_sha, u.seen, u.first_seen, u.last_seen
  FROM unnest(p_sig_shas, p_signatures, p_tools, p_raws, p_node_levels, p_node_shas, p_counts, p_first_seen, p_last_seen)
    AS u(sig_sha, signature, tool, raw, node_level, node_sha, seen, first_seen, last_seen)
  ON CONFLICT (project, sig_sha) DO UPDATE SET
    seen_count = f.seen_count + excluded.seen_count, raw = excluded.raw, node_level = excluded.node_level,
    node_sha = excluded.node_sha, last_seen = excluded.last_seen;
END $$;

-- Vectors of created R nodes and L1/L2 lines; live is read from each as it stands after the whole batch.
CREATE FUNCTION {{schema}}.insert_vectors(p_project text, p_levels text[], p_shas text[], p_kinds text[], p_embeddings text[])
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
END $$;

-- How far a project's log has been applied.
CREATE FUNCTION {{schema}}.write_position(p_project text, p_seq integer, p_head text)
RETURNS void
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  INSERT INTO {{schema}}.projection_state (project, last_seq, head) VALUES (p_project, p_seq, p_head)
  ON CONFLICT (project) DO UPDATE SET last_seq = excluded.last_seq, head = excluded.head;
END $$;

CREATE FUNCTION {{schema}}.insert_run(p_project text, p_run_id text, p_level text, p_query_id text)
RETURNS void
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  INSERT INTO {{schema}}.memory_run (project, run_id, level, query_id) VALUES (p_project, p_run_id, p_level, p_query_id)
  ON CONFLICT DO NOTHING;
END $$;
