-- pgvector projection, schema 1 (@mem/projector-pgvector). A projection of the event log: every
-- row is rebuilt from log events, so nothing here may hold a clock, a random value or an
-- insertion-order id. Changing this file changes what a rebuild writes: the projector notices
-- (it fingerprints the migrations) and rebuilds; there are no in-place upgrades of derived state.
--
-- Templated: {{schema}} is the projection's schema (quoted identifier) and {{dims}} the
-- dimension of the embedder that fills memory_vector. Why templated and not a vector table made
-- in code: the whole schema stays in one reviewable file, and the dimension only changes with the
-- embedder, which is a rebuild (memory_meta records it), never a migration.
--
-- Node identity is (project, level, sha256), as in the SQLite item store: the same text can be
-- evidence and a memory, and live in two projects. Timestamps are the log's ISO-8601 strings,
-- so no session time zone shapes a row.

-- Which projector, schema and embedder wrote these rows; indexes set aside during a bulk load.
CREATE TABLE {{schema}}.memory_meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

-- How far each project's log has been applied: the engine resumes from here.
CREATE TABLE {{schema}}.projection_state (
  project  TEXT    PRIMARY KEY,
  last_seq INTEGER NOT NULL,
  head     TEXT    NOT NULL
);

-- The query a run answers: a memory's chain is (project, level, query_id of its run).
CREATE TABLE {{schema}}.memory_run (
  project  TEXT NOT NULL,
  run_id   TEXT NOT NULL,
  level    TEXT NOT NULL,
  query_id TEXT,
  PRIMARY KEY (project, run_id)
);

-- The current memory of each standing query (L1) and of each project's synthesis (L2): the head
-- of its chain, as in the SQLite item store. Two queries may write the same memory text, which is
-- one node; each query keeps its own head, so neither loses its memory to the other.
CREATE TABLE {{schema}}.memory_head (
  project   TEXT    NOT NULL,
  level     TEXT    NOT NULL,
  query_key TEXT    NOT NULL, -- the query id; '' for the L2 synthesis
  sha256    TEXT    NOT NULL,
  seq       INTEGER NOT NULL,
  PRIMARY KEY (project, level, query_key)
);
CREATE INDEX memory_head_by_sha ON {{schema}}.memory_head (project, level, sha256);

-- The first tombstone of a sha wins; it marks every node of that sha in the project, now and later.
CREATE TABLE {{schema}}.memory_tombstone (
  project TEXT    NOT NULL,
  target  TEXT    NOT NULL,
  reason  TEXT    NOT NULL,
  seq     INTEGER NOT NULL,
  ts      TEXT    NOT NULL,
  PRIMARY KEY (project, target)
);

-- Evidence (L0), memories (L1, L2) and reference passages (R). The first occurrence of a
-- (project, level, sha256) wins. symptom: the failures a memory explains, from its event.
CREATE TABLE {{schema}}.memory_node (
  project       TEXT    NOT NULL,
  level         TEXT    NOT NULL CHECK (level IN ('L0', 'L1', 'L2', 'R')),
  sha256        TEXT    NOT NULL,
  kind          TEXT    NOT NULL CHECK (kind IN ('evidence', 'memory', 'reference')),
  query_id      TEXT,
  run_id        TEXT,
  t             INTEGER,
  source        TEXT,
  text          TEXT    NOT NULL,
  symptom       TEXT,
  seq           INTEGER NOT NULL,
  created_ts    TEXT    NOT NULL,
  superseded_by TEXT,
  deleted_at    TEXT,
  PRIMARY KEY (project, level, sha256)
);
-- Every node of a sha in a project (tombstones, parent resolution).
CREATE INDEX memory_node_by_sha ON {{schema}}.memory_node (project, sha256);

-- Provenance: a memory (child) rests on its parents (evidence for L1, L1 memories for L2). The
-- parent's level is resolved when the edge is written; a parent may be dangling (mem verify
-- reports it), so there is no foreign key on it.
CREATE TABLE {{schema}}.memory_edge (
  project      TEXT NOT NULL,
  child_level  TEXT NOT NULL,
  child_sha    TEXT NOT NULL,
  parent_level TEXT NOT NULL,
  parent_sha   TEXT NOT NULL,
  PRIMARY KEY (project, child_level, child_sha, parent_sha)
);
CREATE INDEX memory_edge_by_parent ON {{schema}}.memory_edge (project, parent_sha);

-- The lines of L1/L2 memories (issue 11 §3): the unit a vector recall answers with. Identity is
-- (project, level, line sha), as in the item store; a table of its own because a one-line
-- memory's line has the memory's sha. The first memory holding a line writes its row (text,
-- seq); symptom is the first among its holders' symptoms. deleted_at: a tombstone or a
-- forgotten event of the line (or of its memory); superseded_by: a superseded event of it.
CREATE TABLE {{schema}}.memory_line (
  project       TEXT    NOT NULL,
  level         TEXT    NOT NULL CHECK (level IN ('L1', 'L2')),
  sha256        TEXT    NOT NULL,
  text          TEXT    NOT NULL,
  symptom       TEXT,
  seq           INTEGER NOT NULL,
  superseded_by TEXT,
  deleted_at    TEXT,
  PRIMARY KEY (project, level, sha256)
);

-- Which memories hold a line: a union over every memory event. A line is live exactly while
-- one of them is a live head and the line itself is neither deleted nor superseded.
CREATE TABLE {{schema}}.memory_line_edge (
  project    TEXT NOT NULL,
  level      TEXT NOT NULL,
  line_sha   TEXT NOT NULL,
  memory_sha TEXT NOT NULL,
  PRIMARY KEY (project, level, line_sha, memory_sha)
);
CREATE INDEX memory_line_edge_by_memory ON {{schema}}.memory_line_edge (project, memory_sha);

-- One node or line, several vectors: 'text' (the lines of L1/L2 memories, R passages) and
-- 'symptom' (each line of a memory whose event carries a symptom). node_sha names a memory_node
-- at R and a memory_line at L1/L2; no foreign key, as it may be either. project and level are
-- repeated here and `live` mirrors "not deleted, not superseded" (for a line: held by a live
-- head), so recall filters one table inside the ANN scan (filter-then-recall) instead of
-- joining after it.
CREATE TABLE {{schema}}.memory_vector (
  project   TEXT    NOT NULL,
  level     TEXT    NOT NULL,
  node_sha  TEXT    NOT NULL,
  kind      TEXT    NOT NULL CHECK (kind IN ('text', 'symptom')),
  live      BOOLEAN NOT NULL,
  embedding vector({{dims}}) NOT NULL,
  PRIMARY KEY (project, level, node_sha, kind)
);
-- Partial per kind: one index over both forces post-filtering and starves recall. The predicate
-- must be a literal or the planner ignores the index. `live` is in it too: a superseded or
-- deleted vector leaves the index instead of using up the scan's candidates.
CREATE INDEX memory_vector_text_hnsw ON {{schema}}.memory_vector USING hnsw (embedding vector_cosine_ops) WHERE kind = 'text' AND live;
CREATE INDEX memory_vector_symptom_hnsw ON {{schema}}.memory_vector USING hnsw (embedding vector_cosine_ops) WHERE kind = 'symptom' AND live;
-- How many live vectors a filter lets through, counted without touching a vector: recall reads
-- it first and answers a small filtered set by an exact scan of just those rows.
CREATE INDEX memory_vector_live ON {{schema}}.memory_vector (kind, project, level) WHERE live;
-- The filter columns are far from independent (a project's L1 memories are few and mostly
-- superseded, its R passages many and live): joint statistics let the planner choose between the
-- HNSW scan and an exact scan of a few rows. Measured at 20k vectors without them: a seq scan
-- for the R filter (412 ms instead of 10 ms through the index).
CREATE STATISTICS {{schema}}.memory_vector_filter (mcv) ON project, level, kind, live FROM {{schema}}.memory_vector;

-- Exact-match tier: failures repeat verbatim, prose does not. A fold over the symptom lines of a
-- project's memories: sig_sha = sha256 of the normalised line; the latest occurrence (in log
-- order) names the node, its raw line and last_seen. Per project, so one project's rows never
-- depend on another's log; tier 1 federates by looking a sig_sha up across projects.
CREATE TABLE {{schema}}.failure_signature (
  project    TEXT    NOT NULL,
  sig_sha    TEXT    NOT NULL,
  signature  TEXT    NOT NULL,
  tool       TEXT    NOT NULL,
  raw        TEXT    NOT NULL,
  node_level TEXT    NOT NULL,
  node_sha   TEXT    NOT NULL,
  seen_count INTEGER NOT NULL,
  first_seen TEXT    NOT NULL,
  last_seen  TEXT    NOT NULL,
  PRIMARY KEY (project, sig_sha)
);
CREATE INDEX failure_signature_by_sig ON {{schema}}.failure_signature (sig_sha);

-- Every time a memory replaced the head of its chain, with why. Never deleted: a memory whose
-- text comes back is the head again (memory_node.superseded_by is the current state), and
-- this table keeps the history.
CREATE TABLE {{schema}}.memory_supersede (
  project TEXT    NOT NULL,
  level   TEXT    NOT NULL,
  old_sha TEXT    NOT NULL,
  new_sha TEXT    NOT NULL,
  reason  TEXT    NOT NULL,
  seq     INTEGER NOT NULL,
  PRIMARY KEY (project, level, old_sha, new_sha),
  FOREIGN KEY (project, level, old_sha) REFERENCES {{schema}}.memory_node (project, level, sha256) ON DELETE CASCADE,
  FOREIGN KEY (project, level, new_sha) REFERENCES {{schema}}.memory_node (project, level, sha256) ON DELETE CASCADE
);
