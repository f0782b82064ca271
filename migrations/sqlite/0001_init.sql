-- Item store, schema 1 (@mem/projector-sqlite). A projection of the event log: every row here
-- is rebuilt from log events, so nothing in this file may hold a clock or a random value.
-- Changing this file changes the bytes a rebuild writes: bump the projector version with it.

-- Which projector wrote the file, and whether it is canonical (see src/seal.ts).
CREATE TABLE projector_meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;

-- Evidence (L0), memories (L1, L2) and reference passages (R), one row per (project, sha256, level).
-- id is derived from that key (src/node-id.ts), never from insertion order: a catch-up that
-- interleaves projects differently from a rebuild still assigns every node the same id.
CREATE TABLE node (
  id            INTEGER PRIMARY KEY,
  project       TEXT    NOT NULL,
  level         TEXT    NOT NULL CHECK (level IN ('L0', 'L1', 'L2', 'R')),
  kind          TEXT    NOT NULL CHECK (kind IN ('evidence', 'memory', 'reference')),
  query_id      TEXT,
  run_id        TEXT,
  t             INTEGER,
  source        TEXT,
  text          TEXT    NOT NULL,
  sha256        TEXT    NOT NULL,
  seq           INTEGER NOT NULL,
  created_ts    TEXT    NOT NULL,
  superseded_by TEXT,
  deleted_at    TEXT,
  meta          TEXT    NOT NULL,
  -- sha256 before level: the same index answers "every node of this sha in the project"
  -- (tombstones, parent resolution) and the identity lookup.
  UNIQUE (project, sha256, level)
);
CREATE INDEX node_by_level ON node (project, level, seq);
-- Only the head of each memory chain: superseding the previous memory stays O(log n).
CREATE INDEX node_current_memory ON node (project, level, query_id) WHERE kind = 'memory' AND superseded_by IS NULL;

-- Full-text index over node.text. External content: the text lives once, in node.
CREATE VIRTUAL TABLE node_fts USING fts5 (
  text,
  content = 'node',
  content_rowid = 'id',
  tokenize = 'porter unicode61 remove_diacritics 2'
);

-- Provenance: a memory (child) rests on its parents (evidence for L1, L1 memories for L2).
CREATE TABLE edge (
  project      TEXT NOT NULL,
  child_level  TEXT NOT NULL,
  child_sha    TEXT NOT NULL,
  parent_level TEXT NOT NULL,
  parent_sha   TEXT NOT NULL,
  kind         TEXT NOT NULL DEFAULT 'provenance',
  PRIMARY KEY (project, child_level, child_sha, parent_sha, kind)
) WITHOUT ROWID;
CREATE INDEX edge_by_parent ON edge (project, parent_sha, parent_level);

-- One row per extraction run: its start (run event) and its end (run_end event).
CREATE TABLE run (
  project          TEXT    NOT NULL,
  run_id           TEXT    NOT NULL,
  level            TEXT    NOT NULL,
  query_id         TEXT,
  input_level      TEXT,
  model            TEXT,
  chunk_tokens     INTEGER,
  memory_budget    INTEGER,
  exit_gate        INTEGER,
  started_seq      INTEGER,
  started_ts       TEXT,
  chunks_seen      INTEGER,
  chunks_used      INTEGER,
  final_memory_sha TEXT,
  error            TEXT,
  ended_seq        INTEGER,
  ended_ts         TEXT,
  PRIMARY KEY (project, run_id)
) WITHOUT ROWID;
CREATE INDEX run_by_query ON run (project, query_id, run_id);

-- Every chunk a run read. "Which chunk shas has query Q seen" is run_by_query, then this
-- table's own key (project, run_id) — clustered, so it covers sha256. There is deliberately no
-- index on sha256 alone: chunk shas are random, and keeping such an index costs about a third
-- of the apply time in random page writes (measured, see the package README).
CREATE TABLE chunk (
  project    TEXT    NOT NULL,
  run_id     TEXT    NOT NULL,
  t          INTEGER NOT NULL,
  level      TEXT    NOT NULL,
  source     TEXT    NOT NULL,
  span_start INTEGER,
  span_end   INTEGER,
  sha256     TEXT    NOT NULL,
  seq        INTEGER NOT NULL,
  PRIMARY KEY (project, run_id, t)
) WITHOUT ROWID;

-- Every gate decision: update-rate is sum("update") / count(*) per run or query.
CREATE TABLE gate (
  project    TEXT    NOT NULL,
  run_id     TEXT    NOT NULL,
  t          INTEGER NOT NULL,
  level      TEXT    NOT NULL,
  "update"   INTEGER NOT NULL,
  "exit"     INTEGER NOT NULL,
  think      TEXT    NOT NULL,
  latency_ms REAL    NOT NULL,
  seq        INTEGER NOT NULL,
  PRIMARY KEY (project, run_id, t)
) WITHOUT ROWID;

-- The first tombstone of a sha wins; it marks every node of that sha, now and later.
CREATE TABLE tombstone (
  project TEXT    NOT NULL,
  target  TEXT    NOT NULL,
  reason  TEXT    NOT NULL,
  seq     INTEGER NOT NULL,
  ts      TEXT    NOT NULL,
  PRIMARY KEY (project, target)
) WITHOUT ROWID;

-- How far each project's log has been applied: the engine resumes from here.
CREATE TABLE projection_state (
  project  TEXT    PRIMARY KEY,
  last_seq INTEGER NOT NULL,
  head     TEXT    NOT NULL
) WITHOUT ROWID;
