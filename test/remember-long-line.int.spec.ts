import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentSha256 } from '@mem/core';
import type { Registry } from '@mem/registry';
import { asRoot, memoryPayloads, registryAt, tempDataRoot } from './api/support.js';

/*
 * `remember --from-line` on a line longer than an item's summary (500 characters) said
 * "summary: at most 500 characters", a field the caller never gave. It now names the line and
 * what to pass (TEXT, a shorter wording), and writes nothing.
 */
let cleanup: () => void;
let registry: Registry;
const LONG = `The importer retries ${'every failed upload after a backoff, '.repeat(16)}then gives up`;

beforeAll(async () => {
  let root: string;
  ({ root, cleanup } = tempDataRoot(['alpha']));
  registry = await registryAt(root, { runJobs: false });
  await registry.context.engine.append('alpha', memoryPayloads('run-1', 'seen', LONG).payloads, {
    kind: 'test',
  });
});
afterAll(async () => {
  await registry?.close();
  cleanup?.();
});

describe('remember from a line too long to be a summary', () => {
  it('says the line is too long and to pass TEXT; with TEXT it is promoted', async () => {
    expect(LONG.length).toBeGreaterThan(500);
    const ref = contentSha256(LONG).slice(0, 12);
    const head = (await registry.context.engine.head('alpha')).seq;
    const refused = await asRoot(registry, 'remember', {
      project: 'alpha',
      from_line: ref,
      type: 'fact',
    }).catch((error: unknown) => error);
    expect(refused).toMatchObject({
      code: 'INVALID_INPUT',
      message: `remember: from_line: the line is ${LONG.length} characters, longer than an item's 500: pass TEXT, a shorter wording (the item still cites the line)`,
      details: { field: 'text' },
    });
    expect((await registry.context.engine.head('alpha')).seq).toBe(head);
    const promoted = (await asRoot(registry, 'remember', {
      project: 'alpha',
      from_line: ref,
      text: 'The importer retries failed uploads with backoff, then gives up',
      type: 'fact',
    })) as { ids: string[] };
    expect(promoted.ids).toHaveLength(1);
  });
});
