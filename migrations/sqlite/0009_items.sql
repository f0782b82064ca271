-- Curated items (issue 13 §1). An item is a node of kind 'item' at level 'I' (one node table,
-- one keyword index, one search beside memories); its text is the summary, then the detail.
-- node.sha256 is sha256(project NUL seq) of its item_added event, whose first 12 hex make the
-- item id ("it-…"): derived, never random, so a rebuild gives every item the same row.
CREATE TABLE node_next (
  id            INTEGER PRIMARY KEY,
  project       TEXT    NOT NULL,
  level         TEXT    NOT NULL CHECK (level IN ('L0', 'L1', 'L2', 'R', 'I')),
  kind          TEXT    NOT NULL CHECK (kind IN ('evidence', 'memory', 'reference', 'line', 'item')),
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

-- What the filters, status machines and cascades read: one row per item. Fields that do not
-- apply to the type stay NULL (the registry and the event catalogue refuse them).
-- Relations live in `edge` at child_level = parent_level = 'I', kind the relation, child_sha
-- and parent_sha item ids: parent (item → its parent), anchor (knowledge → work), blocked_by,
-- link.
CREATE TABLE item (
  project      TEXT    NOT NULL,
  id           TEXT    NOT NULL,
  node_id      INTEGER NOT NULL,
  type         TEXT    NOT NULL CHECK (type IN ('rule', 'fact', 'task', 'thread', 'reminder')),
  status       TEXT    CHECK (status IN ('proposed', 'open', 'in_progress', 'done', 'dropped')),
  summary      TEXT    NOT NULL,
  detail       TEXT,
  due          TEXT,
  remind_at    TEXT,
  valid_until  TEXT,
  deleted_at   TEXT,
  created_seq  INTEGER NOT NULL,
  created_ts   TEXT    NOT NULL,
  -- The seq of the last event that changed the item: what "recent activity" orders by.
  updated_seq  INTEGER NOT NULL,
  PRIMARY KEY (project, id)
) WITHOUT ROWID;
CREATE INDEX item_by_type ON item (project, type, status, created_seq);

CREATE TABLE item_tag (
  project TEXT NOT NULL,
  id      TEXT NOT NULL,
  tag     TEXT NOT NULL,
  PRIMARY KEY (project, id, tag)
) WITHOUT ROWID;
CREATE INDEX item_tag_by_tag ON item_tag (project, tag, id);
