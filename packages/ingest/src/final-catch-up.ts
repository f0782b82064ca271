import type { Engine } from '@mem/engine';

/** What a local run's last catch-up needs of its engine. */
export type FinalCatchUpEngine = Pick<Engine, 'projectorNames' | 'readCaughtUp' | 'catchUp'>;

/**
 * Catches every projection up after a run's last append, one projection at a time in the
 * engine's order (SQLite first): each is opened, caught up, sealed and closed before the next
 * opens (a reusable one, the SQLite store, stays open, as any catch-up leaves it). Why: caught up
 * together, the vault's fold of the whole project (~7 MB of heap at a 300 MB transcript, 3x that
 * at 1 GB) and its sealing were held while the embedded Postgres ran; one at a time, the
 * process peak is the largest projection's, not their sum (issue 15 target 5). An engine that
 * names no projector (a job worker's: the main thread projects) catches up as one.
 */
export async function catchUpEach(engine: FinalCatchUpEngine, project: string): Promise<void> {
  const names = engine.projectorNames();
  if (names.length === 0) {
    await engine.catchUp([project]);
    return;
  }
  for (const name of names)
    await engine.readCaughtUp([project], () => undefined, { reads: [name] });
}
