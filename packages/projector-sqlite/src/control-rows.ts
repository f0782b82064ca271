/*
 * Rows of the control tables (identity and ingest jobs) as the control store returns them.
 * JSON columns come back parsed; column names follow the log's field names.
 */

export interface PrincipalRow {
  name: string;
  added_seq: number;
  added_ts: string;
}

export interface RegisteredProjectRow {
  name: string;
  added_seq: number;
  added_ts: string;
}

export interface MembershipRow {
  project: string;
  principal: string;
  added_seq: number;
  added_ts: string;
}

/** A token as projected: never its secret, only the sha256 of it. */
export interface TokenRow {
  token_id: string;
  label: string;
  principal: string;
  projects: '*' | string[];
  capabilities: string[];
  expires_at: string | null;
  secret_sha256: string;
  created_seq: number;
  created_ts: string;
  revoked_seq: number | null;
  revoked_ts: string | null;
  revoke_reason: string | null;
}

/** An ingest job: accepted, and finished once its ingest_finished event is applied. */
export interface IngestJobRow {
  project: string;
  job_id: string;
  ingest_id: string;
  source: string;
  format: string;
  records: number;
  accepted_seq: number;
  accepted_ts: string;
  principal: string | null;
  token_label: string | null;
  status: 'done' | 'failed' | null;
  chunks: number | null;
  appended: number | null;
  /** Records left out as already ingested by an earlier job under the same source. */
  skipped: number | null;
  error: { code: string; message: string } | null;
  finished_seq: number | null;
  finished_ts: string | null;
}

/** What a project's extraction runs add up to (its L1 gates and its L2 synthesis). */
export interface ProjectActivityRow {
  project: string;
  /** L1 gate decisions: chunks offered to a standing query. */
  chunks_total: number;
  /** L1 gates that opened (a memory update). */
  chunks_used: number;
  l1_runs: number;
  /** started_ts of the newest L1 run, or null. */
  last_l1_run_ts: string | null;
  /** ended_ts (else started_ts) of the newest L2 run, or null. */
  last_synthesis_ts: string | null;
  /** Current (not superseded, not deleted) nodes by level. */
  nodes: Record<'L0' | 'L1' | 'L2' | 'R', number>;
}
