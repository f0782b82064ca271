import Database from 'better-sqlite3';
import type {
  IngestJobRow,
  MembershipRow,
  PrincipalRow,
  ProjectActivityRow,
  RegisteredProjectRow,
  TokenRow,
} from './control-rows.js';
import type { PositionRow } from './rows.js';

/**
 * Read queries over the control tables of a sealed `items.sqlite`: identity (principals,
 * projects, memberships, tokens) and ingest jobs, plus per-project activity. Every list has a
 * total order. Authorization decisions are the caller's; this only reads.
 */
export interface ControlStore {
  principal(name: string): PrincipalRow | undefined;
  principals(): PrincipalRow[];
  registeredProject(name: string): RegisteredProjectRow | undefined;
  registeredProjects(): RegisteredProjectRow[];
  /** The projects `principal` is a member of now, sorted. */
  membershipsOf(principal: string): string[];
  members(project: string): MembershipRow[];
  token(tokenId: string): TokenRow | undefined;
  /** Every token, revoked ones included, by principal, label, id. */
  tokens(): TokenRow[];
  ingestJob(jobId: string): IngestJobRow | undefined;
  ingestJobByIngestId(project: string, ingestId: string): IngestJobRow | undefined;
  /** Jobs accepted and not finished, in acceptance order per project (project, seq). */
  unfinishedIngestJobs(): IngestJobRow[];
  /** The project's jobs under `source` that finished done, accepted before `beforeSeq`, in acceptance order. */
  doneIngestJobs(project: string, source: string, beforeSeq: number): IngestJobRow[];
  /** The newest job of the project, or undefined. */
  lastIngestJob(project: string): IngestJobRow | undefined;
  projectActivity(project: string): ProjectActivityRow;
  /** How far each project's log is applied to this store. */
  positions(): PositionRow[];
  close(): void;
}

interface RawToken extends Omit<TokenRow, 'projects' | 'capabilities'> {
  projects: string;
  capabilities: string;
}

interface RawJob extends Omit<IngestJobRow, 'error'> {
  error: string | null;
}

const JOB_COLUMNS = `project, job_id, ingest_id, source, format, records, accepted_seq, accepted_ts, principal, token_label,
  status, chunks, appended, skipped, error, finished_seq, finished_ts`;

/** Opens the control tables of `items.sqlite` read-only. */
export function openControlStore(path: string): ControlStore {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  const toToken = (raw: RawToken | undefined): TokenRow | undefined =>
    raw && {
      ...raw,
      projects: JSON.parse(raw.projects) as TokenRow['projects'],
      capabilities: JSON.parse(raw.capabilities) as string[],
    };
  const toJob = (raw: RawJob | undefined): IngestJobRow | undefined =>
    raw && {
      ...raw,
      error: raw.error === null ? null : (JSON.parse(raw.error) as IngestJobRow['error']),
    };

  const principal = db.prepare(`SELECT name, added_seq, added_ts FROM principal WHERE name = ?`);
  const principals = db.prepare(`SELECT name, added_seq, added_ts FROM principal ORDER BY name`);
  const project = db.prepare(
    `SELECT name, added_seq, added_ts FROM registered_project WHERE name = ?`,
  );
  const projects = db.prepare(
    `SELECT name, added_seq, added_ts FROM registered_project ORDER BY name`,
  );
  const membershipsOf = db
    .prepare(`SELECT project FROM membership WHERE principal = ? ORDER BY project`)
    .pluck();
  const members = db.prepare(
    `SELECT project, principal, added_seq, added_ts FROM membership WHERE project = ? ORDER BY principal`,
  );
  const token = db.prepare(`SELECT * FROM token WHERE token_id = ?`);
  const tokens = db.prepare(`SELECT * FROM token ORDER BY principal, label, token_id`);
  const job = db.prepare(
    `SELECT ${JOB_COLUMNS} FROM ingest_job WHERE job_id = ? ORDER BY project LIMIT 1`,
  );
  const jobByIngestId = db.prepare(
    `SELECT ${JOB_COLUMNS} FROM ingest_job WHERE project = ? AND ingest_id = ?`,
  );
  const unfinished = db.prepare(
    `SELECT ${JOB_COLUMNS} FROM ingest_job WHERE finished_seq IS NULL ORDER BY project, accepted_seq`,
  );
  const doneJobs = db.prepare(
    `SELECT ${JOB_COLUMNS} FROM ingest_job WHERE project = ? AND source = ? AND accepted_seq < ? AND status = 'done' ORDER BY accepted_seq`,
  );
  const lastJob = db.prepare(
    `SELECT ${JOB_COLUMNS} FROM ingest_job WHERE project = ? ORDER BY accepted_seq DESC LIMIT 1`,
  );
  const gates = db.prepare(
    `SELECT count(*) AS total, coalesce(sum("update"), 0) AS used FROM gate WHERE project = ? AND level = 'L1'`,
  );
  const l1Runs = db.prepare(
    `SELECT count(*) AS runs, max(started_ts) AS last FROM run WHERE project = ? AND level = 'L1'`,
  );
  const l2Last = db
    .prepare(
      `SELECT coalesce(ended_ts, started_ts) AS last FROM run WHERE project = ? AND level = 'L2'
    ORDER BY coalesce(ended_seq, started_seq) DESC, run_id DESC LIMIT 1`,
    )
    .pluck();
  // Memories, evidence and references: lines repeat memories, and curated items are counted apart.
  const nodeCounts =
    db.prepare(`SELECT level, count(*) AS n FROM node WHERE project = ? AND kind NOT IN ('line', 'item') AND deleted_at IS NULL AND superseded_by IS NULL
    GROUP BY level ORDER BY level`);
  const positions = db.prepare(
    `SELECT project, last_seq AS seq, head FROM projection_state ORDER BY project`,
  );

  return {
    principal: (name) => principal.get(name) as PrincipalRow | undefined,
    principals: () => principals.all() as PrincipalRow[],
    registeredProject: (name) => project.get(name) as RegisteredProjectRow | undefined,
    registeredProjects: () => projects.all() as RegisteredProjectRow[],
    membershipsOf: (name) => membershipsOf.all(name) as string[],
    members: (name) => members.all(name) as MembershipRow[],
    token: (id) => toToken(token.get(id) as RawToken | undefined),
    tokens: () => (tokens.all() as RawToken[]).map((raw) => toToken(raw)!),
    ingestJob: (id) => toJob(job.get(id) as RawJob | undefined),
    ingestJobByIngestId: (name, ingestId) =>
      toJob(jobByIngestId.get(name, ingestId) as RawJob | undefined),
    unfinishedIngestJobs: () => (unfinished.all() as RawJob[]).map((raw) => toJob(raw)!),
    doneIngestJobs: (name, source, beforeSeq) =>
      (doneJobs.all(name, source, beforeSeq) as RawJob[]).map((raw) => toJob(raw)!),
    lastIngestJob: (name) => toJob(lastJob.get(name) as RawJob | undefined),
    projectActivity: (name) => {
      const g = gates.get(name) as { total: number; used: number };
      const r = l1Runs.get(name) as { runs: number; last: string | null };
      const nodes: ProjectActivityRow['nodes'] = { L0: 0, L1: 0, L2: 0, R: 0 };
      for (const row of nodeCounts.all(name) as {
        level: keyof ProjectActivityRow['nodes'];
        n: number;
      }[])
        nodes[row.level] = row.n;
      return {
        project: name,
        chunks_total: g.total,
        chunks_used: g.used,
        l1_runs: r.runs,
        last_l1_run_ts: r.last,
        last_synthesis_ts: (l2Last.get(name) as string | undefined) ?? null,
        nodes,
      };
    },
    positions: () => positions.all() as PositionRow[],
    close: () => db.close(),
  };
}
