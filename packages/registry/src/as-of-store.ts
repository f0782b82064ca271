import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LogEvent } from '@mem/core';
import type { Engine, ProjectedEvent, ProjectionBatch, ProjectionPosition } from '@mem/engine';
import {
  itemStorePath,
  openItemStore,
  projectorSqlite,
  type ItemStore,
} from '@mem/projector-sqlite';

/** A project and the newest seq of its log an as-of answer reflects (0: none of it). */
export interface AsOfPoint {
  project: string;
  seq: number;
}

/** Events handed to the projector at a time: its batches, not the whole log in memory. */
const REPLAY_BATCH = 2000;

/**
 * The item store as it stood at each point, forgotten text left out: each project's log
 * replayed up to its seq into a scratch store by the SQLite projector itself, then every later
 * `forgotten` event of the project applied on top. Why a replay: today's store keeps no history
 * of which memory headed each chain when (a line's liveness then), and the projector is the one
 * definition of what a log prefix means. Why the later forgets: a deliberate deletion is not
 * history, so no as-of brings a forgotten text back (DESIGN §9). The scratch directory is
 * private and removed by `close`; its connection zeroes freed cells (secure_delete), so the
 * text a later forget removes does not stay in its pages either. Cost: one read of each
 * project's log and a replay of its prefix, per query.
 */
export async function openStoreAsOf(
  engine: Engine,
  points: readonly AsOfPoint[],
): Promise<{ items: ItemStore; close: () => Promise<void> }> {
  const scratch = await mkdtemp(join(tmpdir(), 'mem-as-of-'));
  const stateDir = join(scratch, '.mem');
  try {
    const handle = await projectorSqlite.init({
      stateDir,
      vaultDir: join(scratch, 'vault'),
      options: {},
    });
    try {
      for (const point of points) await replay(engine, handle, point);
    } finally {
      await projectorSqlite.close(handle);
    }
    const items = openItemStore(itemStorePath(stateDir));
    return {
      items,
      close: async () => {
        items.close();
        await rm(scratch, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(scratch, { recursive: true, force: true });
    throw error;
  }
}

type Handle = Awaited<ReturnType<typeof projectorSqlite.init>>;

async function replay(engine: Engine, handle: Handle, point: AsOfPoint): Promise<void> {
  const handles = new Set<string>(projectorSqlite.handles);
  let after: ProjectionPosition | null = null;
  let through: ProjectionPosition | null = null;
  let pending: ProjectedEvent[] = [];
  const forgottenLater: ProjectedEvent[] = [];
  const flush = async () => {
    if (!through || through.seq === (after?.seq ?? 0)) return;
    const batch: ProjectionBatch = { events: pending, after, through };
    await projectorSqlite.project(handle, point.project, batch);
    after = through;
    pending = [];
  };
  for await (const { event, hash } of engine.read(point.project)) {
    if (event.seq > point.seq) {
      if (isForgotten(event)) forgottenLater.push({ event, hash });
      continue;
    }
    if (handles.has(event.type)) pending.push({ event, hash });
    through = { seq: event.seq, head: hash };
    if (pending.length >= REPLAY_BATCH) await flush();
  }
  await flush();
  // Applied where the prefix stands: the position stays the point's, only the forgetting lands.
  if (forgottenLater.length > 0 && after)
    await projectorSqlite.project(handle, point.project, {
      events: forgottenLater,
      after,
      through: after,
    });
}

function isForgotten(event: LogEvent): boolean {
  return event.type === 'forgotten';
}
