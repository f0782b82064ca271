import { KeyedSerial, type Writer } from '@mem/core';
import type { Engine } from '@mem/engine';
import type { IngestJobRow } from '@mem/projector-sqlite';
import { randomUUID } from 'node:crypto';
import type { IngestRecord } from './accepted-records.js';
import type { IngestJobs } from './ingest-jobs.js';

/** What one acceptance appends: who asked, under which source and format, with which records. */
export interface AcceptRequest {
  project: string;
  ingestId: string;
  source: string;
  format: 'records' | 'claude' | 'pi' | 'codex';
  writer: Writer;
  /** The job the control store already holds under this ingest_id, as of now. */
  existing: () => Promise<IngestJobRow | undefined>;
  /** The records to accept; read only when the ingest_id is new (a transcript is parsed once). */
  records: () => Promise<IngestRecord[]>;
}

/** An earlier job under the same ingest_id, or the job this (or a concurrent) call accepted. */
export type Accepted = { existing: IngestJobRow } | { jobId: string };

/**
 * Appends `ingest_accepted` once per (project, ingest_id) and queues the job. Trigger: two
 * submissions of one ingest_id in this process, the second arriving before the first is
 * projected. Why: the control store cannot tell it yet, so the check alone would accept it
 * twice. Outcome: only the check and the durable append are serial (per project); a retry
 * arriving meanwhile is answered from the in-flight map and waits for the same projection. The
 * catch-up that projects an acceptance runs after the section, shared with the acceptances that
 * came in meanwhile (one seal for many). Entries leave the map once projected.
 */
export class JobAcceptance {
  private readonly serial = new KeyedSerial();
  private readonly inFlight = new Map<string, { jobId: string; projected: Promise<void> }>();

  constructor(
    private readonly engine: Engine,
    private readonly jobs: IngestJobs,
  ) {}

  async accept(request: AcceptRequest): Promise<Accepted> {
    const key = `${request.project}\u0000${request.ingestId}`;
    const accepted = await this.serial.run(
      `ingest:${request.project}`,
      async (): Promise<
        { existing: IngestJobRow } | { inFlight: { jobId: string; projected: Promise<void> } }
      > => {
        const existing = await request.existing();
        if (existing) return { existing };
        const inFlight = this.inFlight.get(key);
        if (inFlight) return { inFlight };
        const records = await request.records();
        const jobId = `ingest-${randomUUID()}`;
        const appendedNow = await this.engine.append(
          request.project,
          [
            {
              type: 'ingest_accepted',
              job_id: jobId,
              ingest_id: request.ingestId,
              source: request.source,
              format: request.format,
              records,
            },
          ],
          request.writer,
          { catchUp: 'later' },
        );
        const projected = this.engine
          .projectAppended(appendedNow)
          .then(() => this.jobs.enqueue(request.project, jobId, appendedNow.first_seq));
        const entry = { jobId, projected };
        this.inFlight.set(key, entry);
        const forget = () => void this.inFlight.delete(key);
        void projected.then(forget, forget);
        return { inFlight: entry };
      },
    );
    if ('existing' in accepted) return { existing: accepted.existing };
    // A retry of an acceptance still being projected waits for it too: its status URL must answer.
    await accepted.inFlight.projected;
    return { jobId: accepted.inFlight.jobId };
  }
}
