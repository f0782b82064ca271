-- Stop 33: a memory line's confirmation (issue 13 §4). Each row: a cited L0 chunk of a confirmed
-- line and the digest its span read as when the line was confirmed (the confirmed event's
-- `cited`); the newest confirmation of a line replaces its rows. Recall reads them to hold a
-- changed chunk's verdict off while its span still reads as confirmed.
CREATE TABLE line_confirmation (
  project   TEXT    NOT NULL,
  line_sha  TEXT    NOT NULL,
  chunk_sha TEXT    NOT NULL,
  digest    TEXT    NOT NULL,
  seq       INTEGER NOT NULL,
  PRIMARY KEY (project, line_sha, chunk_sha)
) WITHOUT ROWID;
