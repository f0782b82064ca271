-- The current memory of each standing query (L1) and of each project's synthesis (L2): the head
-- of its chain. Two queries may write the same memory text, which is one node; each query
-- still has its own head, so neither loses its memory to the other.
CREATE TABLE memory_head (
  project   TEXT    NOT NULL,
  level     TEXT    NOT NULL,
  query_key TEXT    NOT NULL, -- the query id; '' for the L2 synthesis
  sha256    TEXT    NOT NULL,
  seq       INTEGER NOT NULL,
  PRIMARY KEY (project, level, query_key)
) WITHOUT ROWID;

CREATE INDEX memory_head_by_sha ON memory_head (project, level, sha256);
