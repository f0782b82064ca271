import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hasErrorCode, parsePayload } from '@mem/core';
import { afterEach, describe, expect, it } from 'vitest';
import { Engine } from './engine.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function newEngine(): Engine {
  const root = mkdtempSync(join(tmpdir(), 'mem-append-validation-'));
  roots.push(root);
  return new Engine({ root, projectors: [] });
}

/** A tombstone payload whose `reason` counts how often it is read: once per validation pass. */
function countingPayload(): { payload: Record<string, unknown>; reads: () => number } {
  let reads = 0;
  const payload = { type: 'tombstone', target: 'b'.repeat(64) } as Record<string, unknown>;
  Object.defineProperty(payload, 'reason', {
    enumerable: true,
    get: () => {
      reads += 1;
      return 'superseded by the new build';
    },
  });
  return { payload, reads: () => reads };
}

describe('engine.append validation', () => {
  it('validates each payload once: the provenance and tombstone checks read what the log then writes', async () => {
    const single = countingPayload();
    parsePayload(single.payload);
    const engine = newEngine();
    const counted = countingPayload();
    const result = await engine.append(
      'demo',
      [counted.payload],
      { kind: 'cli' },
      {
        catchUp: 'later',
      },
    );
    expect(result.appended).toBe(1);
    expect(counted.reads()).toBe(single.reads());
    const logged = [];
    for await (const { event } of engine.read('demo')) logged.push(event);
    expect(logged[0]).toMatchObject({ type: 'tombstone', reason: 'superseded by the new build' });
  });

  it('refuses an invalid payload with its input line and writes nothing', async () => {
    const engine = newEngine();
    const error = await engine
      .append(
        'demo',
        [{ type: 'tombstone', target: 'b'.repeat(64), reason: 'ok' }, { type: 'tombstone' }],
        { kind: 'cli' },
        {
          catchUp: 'later',
          file: 'input.jsonl',
          lines: [4, 7],
        },
      )
      .catch((failure: unknown) => failure);
    expect(hasErrorCode(error, 'INVALID_EVENT')).toBe(true);
    expect((error as { details: Record<string, unknown> }).details).toMatchObject({
      file: 'input.jsonl',
      line: 7,
    });
    expect((await engine.head('demo')).seq).toBe(0);
  });
});
