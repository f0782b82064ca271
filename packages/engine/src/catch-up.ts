import { MemError, isMemError } from '@mem/core';
import type { EventLog, LogHead } from '@mem/log';
import { checkBatch } from './batch-checks.js';
import type { ProjectedEvent, Projector, ProjectionPosition } from './projector.js';
import { routeBatch } from './routing.js';

/** A projector with its open handle. */
export interface OpenProjector {
  projector: Projector;
  handle: unknown;
}

/** How many events one catch-up applied, per projector and project. */
export interface CatchUpReport {
  applied: { projector: string; project: string; from: number; to: number; events: number }[];
  /** Projections left to the process that holds them (e.g. a running server's embedded PGlite). */
  skipped?: { projector: string; reason: string }[];
}

/** What one project's catch-up changed, and where each projector stands after it. */
export interface ProjectCaughtUp {
  changed: Set<string>;
  positions: Map<string, ProjectionPosition | null>;
}

/** A batch is handed to the projectors at this many events or this many bytes of line, whichever first. */
const BATCH = 2000;
const BATCH_BYTES = 4 * 1024 * 1024;

/**
 * Brings every projector up to the log head of `project`: reads the log once from the
 * lowest position any projector holds, checks each batch once, and hands each projector only
 * what it lacks, cut down to the event types it handles.
 * Refuses (PROJECTION_FAILED) when a projection is ahead of the log or its stored chain
 * head is not the log's: the log was replaced, and only a rebuild can fix that. `beforeApply`
 * runs before each batch a projector is handed (projection-generation.ts: readers learn that
 * a projection is changing). `written`: the events from a seq through the head, when the caller
 * holds them already as the log's exact tail (written-tail.ts); null reads the log.
 */
export async function catchUpProject(
  log: EventLog,
  project: string,
  open: readonly OpenProjector[],
  report: CatchUpReport,
  beforeApply: () => void = () => {},
  written: (fromSeq: number, head: LogHead) => readonly ProjectedEvent[] | null = () => null,
): Promise<ProjectCaughtUp> {
  const head = await log.head(project);
  const positions = new Map<string, ProjectionPosition | null>();
  for (const { projector, handle } of open) {
    const position = await projector.position(handle, project);
    if (position && position.seq > head.seq) {
      throw diverged(
        projector.name,
        project,
        `it has applied seq ${position.seq} but the log ends at seq ${head.seq}`,
      );
    }
    if (position && position.seq === head.seq && position.head !== head.hash) {
      throw diverged(
        projector.name,
        project,
        `its chain head at seq ${position.seq} is not the log's`,
      );
    }
    positions.set(projector.name, position);
  }
  const lagging = open.filter(
    ({ projector }) => (positions.get(projector.name)?.seq ?? 0) < head.seq,
  );
  const changed = new Set<string>();
  if (lagging.length === 0) return { changed, positions };

  const from = Math.min(
    ...lagging.map(({ projector }) => (positions.get(projector.name)?.seq ?? 0) + 1),
  );
  const applied = new Map<string, { from: number; to: number; events: number }>();
  let batch: ProjectedEvent[] = [];
  let batchBytes = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    checkBatch(project, batch);
    for (const { projector, handle } of lagging) {
      const done = positions.get(projector.name)?.seq ?? 0;
      const slice = batch.filter(({ event }) => event.seq > done);
      if (slice.length === 0) continue;
      beforeApply();
      try {
        await projector.project(handle, project, routeBatch(projector.handles, slice));
      } catch (error) {
        if (isMemError(error)) throw error;
        throw new MemError(
          'PROJECTION_FAILED',
          `projector ${projector.name} failed on ${project}: ${(error as Error).message}`,
          { projector: projector.name, project },
          { cause: error },
        );
      }
      const last = slice[slice.length - 1]!;
      positions.set(projector.name, { seq: last.event.seq, head: last.hash });
      const entry = applied.get(projector.name) ?? { from: slice[0]!.event.seq, to: 0, events: 0 };
      entry.to = last.event.seq;
      entry.events += slice.length;
      applied.set(projector.name, entry);
      changed.add(projector.name);
    }
    batch = [];
    batchBytes = 0;
  };
  const add = async ({ event, hash }: ProjectedEvent) => {
    batch.push({ event, hash });
    batchBytes += 'text' in event ? event.text.length : 64;
    if (batch.length >= BATCH || batchBytes >= BATCH_BYTES) await flush();
  };
  const held = written(from, head);
  if (held) for (const event of held) await add(event);
  else for await (const event of log.read(project, { fromSeq: from })) await add(event);
  await flush();
  for (const [name, entry] of [...applied].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    report.applied.push({ projector: name, project, ...entry });
  }
  return { changed, positions };
}

function diverged(projector: string, project: string, why: string): MemError {
  return new MemError(
    'PROJECTION_FAILED',
    `the ${projector} projection of ${project} does not match the log: ${why}. The log was replaced or truncated; run \`mem rebuild --from-log\``,
    { projector, project },
  );
}
