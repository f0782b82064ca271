/**
 * The L0 chunks of `project` with the given shas (a JSON array), each as ingest first read it
 * (its earliest chunk event), with the chunk size its run used: what freshness re-reads to
 * judge a cited source. Through chunk_by_sha (migration 0026), one probe per sha: named, as the
 * planner without statistics would walk the primary key over every chunk of the project.
 */
export const CITED_CHUNKS_SQL = `SELECT sha256, bytes_sha256, source, span_start, span_end, chunk_tokens FROM (
    SELECT c.sha256, c.bytes_sha256, c.source, c.span_start, c.span_end, r.chunk_tokens,
      row_number() OVER (PARTITION BY c.sha256 ORDER BY c.seq, c.run_id, c.t) AS nth
    FROM chunk c INDEXED BY chunk_by_sha
      JOIN run r ON r.project = c.project AND r.run_id = c.run_id
    WHERE c.project = ? AND c.level = 'L0' AND c.sha256 IN (SELECT value FROM json_each(?))
      AND c.span_start IS NOT NULL AND c.source IS NOT NULL AND r.chunk_tokens IS NOT NULL)
  WHERE nth = 1 ORDER BY sha256`;
