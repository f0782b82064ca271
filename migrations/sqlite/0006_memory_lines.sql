-- Lines as the unit of recall (issue 11 §3). Each line of an L1/L2 memory is a node of its own:
-- kind 'line', the memory's level, the line's text and content sha. Its identity is
-- (project, level, line sha): the same line in two memories (a chain's next version keeps most
-- lines) is one node. A one-line memory's line has the memory's sha, so kind joins the key.
-- A line is live while some memory holding it is a live head (src/statements.ts refreshLines).
CREATE TABLE node_next (
  id            INTEGER PRIMARY KEY,
  project       TEXT    NOT NULL,
  level         TEXT    NOT NULL CHECK (level IN ('L0', 'L1', 'L2', 'R')),
  kind          TEXT    NOT NULL CHECK (kind IN ('evidence', 'memory', 'reference', 'line')),
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
  UNIQUE (project, sha256, level, kind)
);
INSERT INTO node_next SELECT * FROM node;
DROP TABLE node;
ALTER TABLE node_next RENAME TO node;
CREATE INDEX node_by_level ON node (project, level, seq);
CREATE INDEX node_current_memory ON node (project, level, query_id) WHERE kind = 'memory' AND superseded_by IS NULL;

-- A line's edges, apart from the memories' provenance in `edge`: kind 'memory' to each memory
-- holding it (at the line's level), kind 'parent' to each sha it rests on (chunks' evidence for
-- an L1 line, L1 memories for an L2 line), the union over the memories holding it.
CREATE TABLE line_edge (
  project    TEXT NOT NULL,
  level      TEXT NOT NULL,
  line_sha   TEXT NOT NULL,
  kind       TEXT NOT NULL CHECK (kind IN ('memory', 'parent')),
  target_sha TEXT NOT NULL,
  PRIMARY KEY (project, level, line_sha, kind, target_sha)
) WITHOUT ROWID;
-- The lines of a memory (refreshing them when the memory is superseded or tombstoned).
CREATE INDEX line_edge_by_target ON line_edge (project, level, target_sha, kind);
