import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventLog } from '@mem/log';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Engine } from './engine.js';
import type { ProjectedEvent, ProjectionPosition, Projector } from './projector.js';

/*
 * The catch-up after an append hands the projectors the events the log just returned
 * (written-tail.ts) instead of reading them back, and reads the log whenever those are not
 * exactly its tail. Either way a projector receives what the log holds, hash for hash.
 */
const P = 'demo';
const writer = { kind: 'cli' } as const;
const payloads = readFileSync(
  new URL('../../../test/fixtures/extraction-runs.jsonl', import.meta.url),
  'utf8',
)
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as Record<string, unknown>);
const roots: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A projector keeping every event it is handed, in memory. */
function recording(): Projector<null> & { received: ProjectedEvent[] } {
  const received: ProjectedEvent[] = [];
  let position: ProjectionPosition | null = null;
  return {
    name: 'recording',
    version: 1,
    handles: [...new Set(payloads.map((p) => p.type as never))],
    received,
    init: () => Promise.resolve(null),
    position: () => Promise.resolve(position),
    project: (_handle, _project, batch) => {
      received.push(...batch.events);
      position = batch.through;
      return Promise.resolve();
    },
    seal: () => Promise.resolve(),
    outputs: () => Promise.resolve([]),
    close: () => Promise.resolve(),
    reset: () => {
      received.length = 0;
      position = null;
      return Promise.resolve();
    },
  };
}

function engineAt(root: string) {
  const projector = recording();
  return { engine: new Engine({ root, projectors: [projector] }), projector };
}

async function logged(engine: Engine) {
  const events: ProjectedEvent[] = [];
  for await (const { event, hash } of engine.read(P)) events.push({ event, hash });
  return events;
}

/** How many times a catch-up read project P's log (the append's own checks read it too). */
function catchUpReads() {
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called with its log as `this` below
  const original = EventLog.prototype.read;
  let count = 0;
  vi.spyOn(EventLog.prototype, 'read').mockImplementation(function (
    this: EventLog,
    project,
    options,
  ) {
    if (project === P && new Error().stack?.includes('catchUpProject')) count += 1;
    return original.call(this, project, options);
  });
  return () => count;
}

describe('catch-up after an append', () => {
  it('hands the projectors the appended events without reading them back, as the log holds them', async () => {
    const root = mkdtempSync(join(tmpdir(), 'mem-written-tail-'));
    roots.push(root);
    const { engine, projector } = engineAt(root);
    await engine.append(P, payloads.slice(0, 3), writer);
    const reads = catchUpReads();
    await engine.append(P, payloads.slice(3, 6), writer);
    await engine.append(P, payloads.slice(6), writer);
    expect(reads()).toBe(0);
    expect(projector.received).toEqual(await logged(engine));
    expect(projector.received.length).toBe(payloads.length);
  });

  it('reads the log when another writer appended in between', async () => {
    const root = mkdtempSync(join(tmpdir(), 'mem-written-tail-'));
    roots.push(root);
    const a = engineAt(root);
    const b = engineAt(root);
    await a.engine.append(P, payloads.slice(0, 3), writer);
    await b.engine.append(P, payloads.slice(3, 6), writer);
    const reads = catchUpReads();
    await a.engine.append(P, payloads.slice(6), writer);
    expect(reads()).toBeGreaterThan(0);
    expect(a.projector.received).toEqual(await logged(a.engine));
    expect(b.projector.received).toEqual((await logged(b.engine)).slice(0, 6));
  });
});
