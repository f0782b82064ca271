import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { SYSTEM_PROJECT, hasErrorCode, isMemError, type LogEvent } from '@mem/core';
import {
  projectStretch,
  type ProjectionOptions,
  type ProjectionTarget,
  type Projector,
} from '@mem/engine';
import { projectLogs, splits } from '../support/arbitraries.js';
import { chainEvents, type ChainedEvent } from '../support/events.js';

/**
 * Reads every output of a projector at `target` into path → bytes (hex for binary safety),
 * plus, for a database projection, its per-table digests.
 */
export async function snapshot(
  projector: Projector,
  target: ProjectionTarget,
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const output of await projector.outputs(target))
    out[output.path] = readFileSync(output.absolutePath).toString('hex');
  if (projector.digest) {
    const handle = await projector.init(target);
    try {
      for (const [table, digest] of Object.entries(await projector.digest(handle)))
        out[`digest:${table}`] = digest;
    } finally {
      await projector.close(handle);
    }
  }
  return out;
}

/** Applies per-project event lists as one batch each (sorted by project), then seals. */
export async function applyAtOnce(
  projector: Projector,
  target: ProjectionTarget,
  logs: Record<string, ChainedEvent[]>,
): Promise<void> {
  const handle = await projector.init(target);
  try {
    for (const project of Object.keys(logs).sort()) {
      const events = logs[project]!;
      if (events.length > 0)
        await projectStretch(
          projector,
          handle,
          project,
          events.map(({ event, hash }) => ({ event, hash })),
        );
    }
    await projector.seal(handle);
  } finally {
    await projector.close(handle);
  }
}

export interface ContractOptions {
  options?: ProjectionOptions;
}

/**
 * The contract every projector keeps (STYLE "one contract suite per interface"):
 * incremental == rebuild byte for byte under random splits and project interleavings,
 * rebuild twice is identical, a replayed event is refused, an unknown type is refused loudly,
 * and a one-project reset + replay equals never resetting.
 */
export function projectorContract(
  name: string,
  make: () => Projector,
  contract: ContractOptions = {},
): void {
  describe(`projector contract: ${name}`, () => {
    const dirs: string[] = [];
    const target = (): ProjectionTarget => {
      const dir = mkdtempSync(join(tmpdir(), `mem-contract-${name}-`));
      dirs.push(dir);
      return {
        stateDir: join(dir, '.mem'),
        vaultDir: join(dir, 'vault'),
        options: contract.options ?? {},
      };
    };
    afterEach(() => {
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    });

    it('incremental application in random splits and interleavings equals one rebuild, byte for byte', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc
            .tuple(projectLogs(2), fc.array(fc.boolean(), { minLength: 1, maxLength: 3 }))
            .chain(([payloads, settings]) => {
              const logs: Record<string, ChainedEvent[]> = {};
              for (const [project, list] of Object.entries(payloads))
                logs[project] = chainEvents(project, list);
              // Settings events travel in `_system` beside the projects: every projector accepts them in any split.
              logs[SYSTEM_PROJECT] = chainEvents(
                SYSTEM_PROJECT,
                settings.map((on) => ({
                  type: 'projection_settings_set' as const,
                  emit_evidence_notes: on,
                })),
              );
              const projects = Object.keys(logs).sort();
              return fc.record({
                logs: fc.constant(logs),
                cuts: fc.tuple(...projects.map((p) => splits(logs[p]!.length))),
                order: fc.array(fc.nat({ max: projects.length - 1 }), { maxLength: 20 }),
                sealEvery: fc.integer({ min: 1, max: 4 }),
              });
            }),
          async ({ logs, cuts, order, sealEvery }) => {
            const projects = Object.keys(logs).sort();
            const batches = projects.map((project, i) => {
              const events = logs[project]!;
              const bounds = [0, ...cuts[i]!, events.length];
              const out: ChainedEvent[][] = [];
              for (let b = 0; b + 1 < bounds.length; b++)
                out.push(events.slice(bounds[b], bounds[b + 1]));
              return out.filter((batch) => batch.length > 0);
            });
            // Interleave: `order` picks which project advances next; leftovers follow in project order.
            const schedule: number[] = [...order];
            for (let i = 0; i < projects.length; i++)
              for (let k = 0; k < batches[i]!.length; k++) schedule.push(i);
            const incremental = target();
            const cursor = projects.map(() => 0);
            const projector = make();
            let handle = await projector.init(incremental);
            let applied = 0;
            for (const i of schedule) {
              const batch = batches[i]![cursor[i]!];
              if (!batch) continue;
              cursor[i]! += 1;
              await projectStretch(
                projector,
                handle,
                projects[i]!,
                batch.map(({ event, hash }) => ({ event, hash })),
              );
              applied += 1;
              if (applied % sealEvery === 0) {
                await projector.seal(handle);
                await projector.close(handle);
                handle = await projector.init(incremental);
              }
            }
            await projector.seal(handle);
            await projector.close(handle);

            const once = target();
            await applyAtOnce(make(), once, logs);
            expect(await snapshot(projector, incremental)).toEqual(await snapshot(projector, once));
          },
        ),
        { numRuns: 25 },
      );
    });

    it('rebuilding twice gives identical bytes', async () => {
      const [payloads] = fc.sample(projectLogs(2), { numRuns: 1, seed: 42 });
      const logs: Record<string, ChainedEvent[]> = {};
      for (const [project, list] of Object.entries(payloads!))
        logs[project] = chainEvents(project, list);
      const a = target();
      const b = target();
      await applyAtOnce(make(), a, logs);
      await applyAtOnce(make(), b, logs);
      const projector = make();
      const snapA = await snapshot(projector, a);
      expect(Object.keys(snapA).length).toBeGreaterThan(0);
      expect(snapA).toEqual(await snapshot(projector, b));
    });

    it('refuses events that do not continue its position (an event is never applied twice)', async () => {
      const events = chainEvents(
        'demo',
        fc.sample(projectLogs(1), { numRuns: 1, seed: 7 })[0]!['proj-1']!,
      );
      const projector = make();
      const t = target();
      const handle = await projector.init(t);
      try {
        await projectStretch(
          projector,
          handle,
          'demo',
          events.map(({ event, hash }) => ({ event, hash })),
        );
        const position = await projector.position(handle, 'demo');
        expect(position).toEqual({ seq: events.length, head: events[events.length - 1]!.hash });
        const replay = projectStretch(
          projector,
          handle,
          'demo',
          events.slice(-1).map(({ event, hash }) => ({ event, hash })),
        );
        await expect(replay).rejects.toSatisfy((error: unknown) =>
          hasErrorCode(error, 'PROJECTION_FAILED'),
        );
        expect(await projector.position(handle, 'demo')).toEqual(position);
      } finally {
        await projector.close(handle);
      }
    });

    it('refuses an unknown event type loudly', async () => {
      const [first] = chainEvents('demo', [
        { type: 'tombstone', target: 'a'.repeat(64), reason: 'x' },
      ]);
      const bogus = { ...first!.event, type: 'telepathy' } as unknown as LogEvent;
      const projector = make();
      const handle = await projector.init(target());
      try {
        const attempt = projectStretch(projector, handle, 'demo', [
          { event: bogus, hash: first!.hash },
        ]);
        await expect(attempt).rejects.toSatisfy(
          (error: unknown) => isMemError(error) && error.code === 'UNKNOWN_EVENT_TYPE',
        );
      } finally {
        await projector.close(handle);
      }
    });

    it('reset of one project, then replaying it, equals never resetting', async () => {
      const [payloads] = fc.sample(
        projectLogs(2).filter((l) => Object.keys(l).length === 2),
        { numRuns: 1, seed: 11 },
      );
      const logs: Record<string, ChainedEvent[]> = {};
      for (const [project, list] of Object.entries(payloads!))
        logs[project] = chainEvents(project, list);
      const projector = make();
      const a = target();
      await applyAtOnce(projector, a, logs);
      const before = await snapshot(projector, a);
      await projector.reset(a, 'proj-1');
      await applyAtOnce(projector, a, { 'proj-1': logs['proj-1']! });
      expect(await snapshot(projector, a)).toEqual(before);
    });
  });
}
