-- Issue 13 §2: Idempotency-Key outcomes that survive a restart and are shared by every process
-- on the root. One row per key per project, from the idempotency_recorded event that closes the
-- batch of the write: that batch is seqs first_seq..last_seq. A key reused after it expired
-- records again, and the newer record replaces the row. Hashes only: no key, no request.
CREATE TABLE idempotency_key (
  key_sha256   TEXT    NOT NULL,
  project      TEXT    NOT NULL,
  fingerprint  TEXT    NOT NULL,
  op           TEXT    NOT NULL,
  first_seq    INTEGER NOT NULL,
  last_seq     INTEGER NOT NULL,
  ts           TEXT    NOT NULL,
  seq          INTEGER NOT NULL,
  PRIMARY KEY (key_sha256, project)
) WITHOUT ROWID;
