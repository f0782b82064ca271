-- Stop 31: a review finding may be 'orphaned_knowledge' (a fact or rule whose every anchor is
-- deleted), its subjects item ids. SQLite cannot change a CHECK in place: the table is rebuilt
-- with its rows and its index.
CREATE TABLE review_finding_next (
  project      TEXT    NOT NULL,
  id           TEXT    NOT NULL,
  kind         TEXT    NOT NULL CHECK (kind IN ('resurfacing', 'contradiction', 'duplicate', 'stale_grounding', 'orphaned_knowledge')),
  subjects     TEXT    NOT NULL,
  explanation  TEXT    NOT NULL,
  seq          INTEGER NOT NULL,
  opened_by    TEXT,
  decision     TEXT    CHECK (decision IN ('keep', 'dismiss', 'supersede')),
  decided_seq  INTEGER,
  PRIMARY KEY (project, id)
) WITHOUT ROWID;
INSERT INTO review_finding_next SELECT project, id, kind, subjects, explanation, seq, opened_by, decision, decided_seq FROM review_finding;
DROP TABLE review_finding;
ALTER TABLE review_finding_next RENAME TO review_finding;
CREATE INDEX review_finding_open ON review_finding (project, seq) WHERE decision IS NULL;
