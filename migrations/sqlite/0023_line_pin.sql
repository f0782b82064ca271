-- Issue 13 §5: pins on memory lines (`mem pin REF`). One row per pinned line, keyed as a line
-- node is (project, level, sha256): the line_pinned event that pinned it, who and why. An
-- unpin deletes the row. A forgotten or superseded line keeps its row: recall leaves such a
-- line out before it reads a pin, so the pin never brings text back.
CREATE TABLE line_pin (
  project  TEXT    NOT NULL,
  level    TEXT    NOT NULL CHECK (level IN ('L1', 'L2')),
  sha256   TEXT    NOT NULL,
  seq      INTEGER NOT NULL,
  actor    TEXT,
  reason   TEXT    NOT NULL,
  PRIMARY KEY (project, level, sha256)
) WITHOUT ROWID;
