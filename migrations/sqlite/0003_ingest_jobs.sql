-- Ingest jobs accepted over HTTP/MCP (@mem/projector-sqlite): one row per ingest_accepted
-- event, completed by its ingest_finished event. Whether a job is queued or running is
-- process state of the server, never stored here.

CREATE TABLE ingest_job (
  project      TEXT    NOT NULL,
  job_id       TEXT    NOT NULL,
  ingest_id    TEXT    NOT NULL,
  source       TEXT    NOT NULL,
  format       TEXT    NOT NULL,
  records      INTEGER NOT NULL,
  accepted_seq INTEGER NOT NULL,
  accepted_ts  TEXT    NOT NULL,
  principal    TEXT,
  token_label  TEXT,
  status       TEXT,
  chunks       INTEGER,
  appended     INTEGER,
  error        TEXT,
  finished_seq INTEGER,
  finished_ts  TEXT,
  PRIMARY KEY (project, job_id)
) WITHOUT ROWID;
-- The idempotency key: the first acceptance of an ingest_id in a project wins.
CREATE UNIQUE INDEX ingest_job_by_ingest_id ON ingest_job (project, ingest_id);
CREATE INDEX ingest_job_by_id ON ingest_job (job_id);
