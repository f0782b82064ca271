-- pgvector projection: recall, as a function of the projection's schema.
--
-- Why a function: one round trip per recall. Sent by the client, a recall was a transaction of
-- seven statements (BEGIN, two SET LOCAL, the ANN scan, and when it came back short, SET LOCAL
-- and an exact scan, COMMIT); in PGlite each costs 0.2–0.5 ms before any work, so two recalls
-- per query spent 3.6 ms, mostly in round trips. force_custom_plan: each scan is planned for its
-- real filter values, as a statement sent by the client is, so the planner still chooses
-- between the HNSW index and an exact scan of a few rows (see memory_vector_filter).

-- The nearest live vectors of one kind inside the filter (filter-then-recall), nearest first,
-- a function of the filtered rows alone (an exact scan whenever other projects hold vectors).
-- A filter that lets fewer than p_fetch vectors through (a project's live memories, typically)
-- is answered by an exact scan of those rows alone: an HNSW scan would walk the whole graph
-- looking for rows that do not exist. Otherwise an ANN scan; when it returns fewer than p_fetch
-- rows, the index scan gave up before the filter let enough through, and an exact scan settles
-- it. Exact rows come back flagged, and the caller takes those when there are any. The kind
-- is a literal in each statement, never a parameter: the planner only uses a partial index
-- whose predicate it can prove. The exact scan orders over a subquery fenced by OFFSET 0, so no
-- index can serve its ORDER BY (a cached plan would ignore SET enable_indexscan).
CREATE FUNCTION {{schema}}.recall_vectors(
  p_kind text, p_query vector, p_projects text[], p_levels text[], p_fetch integer, p_ef_search integer, p_iterative boolean)
RETURNS TABLE (exact boolean, project text, level text, sha256 text, distance double precision)
LANGUAGE plpgsql SET plan_cache_mode = force_custom_plan AS $$
DECLARE
  found_rows bigint;
BEGIN
  SELECT count(*) INTO found_rows FROM (
    SELECT 1 FROM {{schema}}.memory_vector v
    WHERE v.kind = p_kind AND v.live AND v.project = ANY(p_projects) AND v.level = ANY(p_levels)
    LIMIT p_fetch
  ) filtered;
  IF found_rows = 0 THEN
    RETURN;
  END IF;
  -- Trigger: another project holds live vectors of this kind. Why: the HNSW graph links every
  -- project's rows, so an approximate walk for these projects would visit, and stop among,
  -- rows the caller cannot reach: its hits (and the floor and abstention after them) would
  -- move with another project's content. Outcome: the exact scan below, over the filtered
  -- rows alone. The index serves a filter that covers every project that has such vectors.
  IF found_rows >= p_fetch AND NOT EXISTS (
    SELECT 1 FROM {{schema}}.projection_state ps
    WHERE ps.project <> ALL(p_projects)
      AND EXISTS (SELECT 1 FROM {{schema}}.memory_vector o WHERE o.kind = p_kind AND o.live AND o.project = ps.project)
  ) THEN
    -- Local to the caller's transaction: a lone SELECT of this function is one.
    PERFORM set_config('hnsw.ef_search', p_ef_search::text, true);
    -- pgvector 0.8+: the scan keeps walking the graph while the filter rejects candidates.
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
