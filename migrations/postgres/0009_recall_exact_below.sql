-- Issue 15 target 3: a filter that lets at most p_exact_max live vectors through is answered by
-- an exact scan, whichever projects hold vectors. Rows are unchanged; only how recall reads them.
--
-- Why: below a few thousand rows an exact scan costs little and is the answer an HNSW walk only
-- approximates, so every backend gives the same hits for it (0003 took the HNSW path for any
-- filter that passed p_fetch rows, a project's live memories included). It also makes the
-- answer a plain function of the filtered rows, which the read side can then compute itself from
-- an in-process copy of them (vector-snapshot.ts), bit for bit: same floats, same order. Above
-- p_exact_max the rules of 0003 hold unchanged; p_exact_max 0 is 0003's function exactly.
DROP FUNCTION {{schema}}.recall_vectors(text, vector, text[], text[], integer, integer, boolean);

CREATE FUNCTION {{schema}}.recall_vectors(
  p_kind text, p_query vector, p_projects text[], p_levels text[], p_fetch integer, p_ef_search integer, p_iterative boolean,
  p_exact_max integer)
RETURNS TABLE (exact boolean, project text, level text, sha256 text, distance double precision)
LANGUAGE plpgsql SET plan_cache_mode = force_custom_plan AS $$
DECLARE
  found_rows bigint;
BEGIN
  -- Counted up to one past the larger of the two thresholds, by the memory_vector_live index.
  SELECT count(*) INTO found_rows FROM (
    SELECT 1 FROM {{schema}}.memory_vector v
    WHERE v.kind = p_kind AND v.live AND v.project = ANY(p_projects) AND v.level = ANY(p_levels)
    LIMIT GREATEST(p_fetch, p_exact_max + 1)
  ) filtered;
  IF found_rows = 0 THEN
    RETURN;
  END IF;
  -- As in 0003 (why another project's vectors force the exact scan), once past p_exact_max.
  IF found_rows > p_exact_max AND found_rows >= p_fetch AND NOT EXISTS (
    SELECT 1 FROM {{schema}}.projection_state ps
    WHERE ps.project <> ALL(p_projects)
      AND EXISTS (SELECT 1 FROM {{schema}}.memory_vector o WHERE o.kind = p_kind AND o.live AND o.project = ps.project)
  ) THEN
    PERFORM set_config('hnsw.ef_search', p_ef_search::text, true);
    IF p_iterative THEN
      PERFORM set_config('hnsw.iterative_scan', 'strict_order', true);
    END IF;

    IF p_kind = 'text' THEN
      RETURN QUERY SELECT false, v.project, v.level, v.node_sha, (v.embedding <=> p_query)::double precision
        FROM {{schema}}.memory_vector v
        WHERE v.kind = 'text' AND v.live AND v.project = ANY(p_projects) AND v.level = ANY(p_levels)
        ORDER BY v.embedding <=> p_query LIMIT p_fetch;
    ELSE
      RETURN QUERY SELECT false, v.project, v.level, v.node_sha, (v.embedding <=> p_query)::double precision
        FROM {{schema}}.memory_vector v
        WHERE v.kind = 'symptom' AND v.live AND v.project = ANY(p_projects) AND v.level = ANY(p_levels)
        ORDER BY v.embedding <=> p_query LIMIT p_fetch;
    END IF;
    GET DIAGNOSTICS found_rows = ROW_COUNT;
    IF found_rows >= p_fetch THEN
      RETURN;
    END IF;
  END IF;

  RETURN QUERY SELECT true, e.project, e.level, e.node_sha, e.distance
    FROM (
      SELECT v.project, v.level, v.node_sha, (v.embedding <=> p_query)::double precision AS distance
      FROM {{schema}}.memory_vector v
      WHERE v.kind = p_kind AND v.live AND v.project = ANY(p_projects) AND v.level = ANY(p_levels)
      OFFSET 0
    ) e
    ORDER BY e.distance LIMIT p_fetch;
END $$;
