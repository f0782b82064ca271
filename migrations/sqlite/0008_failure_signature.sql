-- Issue 14: tool context's exact tier. A fold over the failure signatures memory lines carry
-- (core/events/memory-lines.ts): one row per (project, sig_sha); every line that names it is one
-- occurrence (a kept line does not repeat it), first_seen and last_seen are those events' ts, and
-- the latest occurrence names the line and the memory it was seen in. Per project, as pgvector's
-- failure_signature: a lookup federates by sig_sha across projects.
CREATE TABLE failure_signature (
  project     TEXT    NOT NULL,
  sig_sha     TEXT    NOT NULL,
  signature   TEXT    NOT NULL,
  tool        TEXT    NOT NULL,
  level       TEXT    NOT NULL CHECK (level IN ('L1', 'L2')),
  line_sha    TEXT    NOT NULL,
  memory_sha  TEXT    NOT NULL,
  seen_count  INTEGER NOT NULL,
  first_seen  TEXT    NOT NULL,
  last_seen   TEXT    NOT NULL,
  PRIMARY KEY (project, sig_sha)
) WITHOUT ROWID;
CREATE INDEX failure_signature_by_sig ON failure_signature (sig_sha, project);
