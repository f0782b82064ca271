-- Records a finished ingest job left out because an earlier job under the same source had
-- already ingested them (by record identity, never by position). NULL for jobs finished
-- before this column existed, and for jobs that skipped none.
ALTER TABLE ingest_job ADD COLUMN skipped INTEGER;
-- The earlier jobs of a source, in acceptance order: what a new job under it skips.
CREATE INDEX ingest_job_by_source ON ingest_job (project, source, accepted_seq);
