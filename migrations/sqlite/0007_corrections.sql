-- Issue 12: what `forgotten` and `superseded` events did to lines. Memory rows are whole
-- memories; a line has no row of its own here, so a read path that returns lines joins these
-- (a line whose sha is in forgotten_line or superseded_line is not live). A forgotten whole
-- memory also sets node.deleted_at, which every memory read path already honours.
CREATE TABLE forgotten_line (
  project TEXT    NOT NULL,
  sha256  TEXT    NOT NULL,
  -- The forgotten event's target: the line itself, or the memory it was forgotten with.
  target  TEXT    NOT NULL,
  seq     INTEGER NOT NULL,
  PRIMARY KEY (project, sha256)
) WITHOUT ROWID;

-- The first supersession of a target wins (the registry refuses superseding twice only by
-- reading the log; a hand-made second one is kept in the log, not here).
CREATE TABLE superseded_line (
  project       TEXT    NOT NULL,
  sha256        TEXT    NOT NULL,
  target_kind   TEXT    NOT NULL CHECK (target_kind IN ('line', 'memory')),
  after_sha256  TEXT    NOT NULL,
  seq           INTEGER NOT NULL,
  PRIMARY KEY (project, sha256)
) WITHOUT ROWID;
