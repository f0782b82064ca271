-- Issue 12 §4: the review queue, one row per finding (review_opened), its decision filled in
-- by the first review_decided on it. `mem review list` reads the open ones (decision IS NULL).
-- subjects is the finding's sorted sha list as a JSON array; explanation never holds line text.
CREATE TABLE review_finding (
  project      TEXT    NOT NULL,
  id           TEXT    NOT NULL,
  kind         TEXT    NOT NULL CHECK (kind IN ('resurfacing', 'contradiction', 'duplicate', 'stale_grounding')),
  subjects     TEXT    NOT NULL,
  explanation  TEXT    NOT NULL,
  seq          INTEGER NOT NULL,
  opened_by    TEXT,
  decision     TEXT    CHECK (decision IN ('keep', 'dismiss', 'supersede')),
  decided_seq  INTEGER,
  PRIMARY KEY (project, id)
) WITHOUT ROWID;
CREATE INDEX review_finding_open ON review_finding (project, seq) WHERE decision IS NULL;
