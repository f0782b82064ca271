-- The chunks of a project by their sha: a query's citations and freshness look up the L0
-- chunks a page's lines were drawn from (citedChunks). Keyed on (project, run_id, t) alone,
-- that lookup read every chunk row of the project for each request.
CREATE INDEX chunk_by_sha ON chunk (project, sha256);
