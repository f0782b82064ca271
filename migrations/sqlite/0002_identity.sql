-- Identity (@mem/projector-sqlite): principals, projects, memberships and tokens, projected
-- from the `_system` log only (DESIGN §4 "Administration"). These tables hold no `project`
-- column: every row comes from `_system`, and resetting `_system` empties them.
-- A token's secret is never here: only the sha256 the log carries.

CREATE TABLE principal (
  name     TEXT    PRIMARY KEY,
  added_seq INTEGER NOT NULL,
  added_ts TEXT    NOT NULL
) WITHOUT ROWID;

-- Projects registered for sharing (`mem project add`): only these can have members.
CREATE TABLE registered_project (
  name      TEXT    PRIMARY KEY,
  added_seq INTEGER NOT NULL,
  added_ts  TEXT    NOT NULL
) WITHOUT ROWID;

-- Current membership only: member_removed deletes the row, so a lookup is the whole truth.
CREATE TABLE membership (
  project   TEXT    NOT NULL,
  principal TEXT    NOT NULL,
  added_seq INTEGER NOT NULL,
  added_ts  TEXT    NOT NULL,
  PRIMARY KEY (principal, project)
) WITHOUT ROWID;
CREATE INDEX membership_by_project ON membership (project, principal);

-- projects: canonical JSON, "*" or a sorted list; capabilities: a sorted JSON list.
CREATE TABLE token (
  token_id      TEXT    PRIMARY KEY,
  label         TEXT    NOT NULL,
  principal     TEXT    NOT NULL,
  projects      TEXT    NOT NULL,
  capabilities  TEXT    NOT NULL,
  expires_at    TEXT,
  secret_sha256 TEXT    NOT NULL,
  created_seq   INTEGER NOT NULL,
  created_ts    TEXT    NOT NULL,
  revoked_seq   INTEGER,
  revoked_ts    TEXT,
  revoke_reason TEXT
) WITHOUT ROWID;
CREATE INDEX token_by_principal ON token (principal, label, token_id);
