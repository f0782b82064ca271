import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentSha256 } from '@mem/core';
import type { Registry } from '@mem/registry';
import { startServer, type RunningServer } from '@mem/server';
import { call, memoryPayloads, mint, registryAt, seedIdentity, tempDataRoot } from './support.js';

/*
 * Issue 12: `force` over HTTP. Superseding by a forgotten text is refused FORGOTTEN like every
 * write; `force: true` writes it and records the overridden tombstone in a `resurfaced` event.
 */
const KEPT = 'Uploads failed because of the 8KB body buffer.';
const GONE = 'Uploads pass once the body buffer is raised to 16KB.';

let cleanup: () => void;
let registry: Registry;
let server: RunningServer;
let token = '';

async function logTypes(): Promise<string[]> {
  const events: string[] = [];
  for await (const { event } of registry.context.engine.read('alpha')) events.push(event.type);
  return events;
}

beforeAll(async () => {
  let root: string;
  ({ root, cleanup } = tempDataRoot(['alpha']));
  registry = await registryAt(root, { runJobs: false });
  await seedIdentity(registry, { alice: ['alpha'] });
  token = (await mint(registry, { principal: 'alice' })).secret;
  for (const [run, line] of [
    ['run-kept', KEPT],
    ['run-gone', GONE],
  ] as const)
    await registry.context.engine.append(
      'alpha',
      memoryPayloads(run, `Seen: ${line}`, line).payloads,
      { kind: 'test' },
    );
  server = await startServer(registry, {
    port: 0,
    rateLimits: { burstPerSecond: 0, ingestPerHour: 0, queryPerHour: 0 },
  });
  const forgot = await call(server.url, 'POST', '/memory/forget', {
    token,
    body: { project: 'alpha', ref: GONE, reason: 'never raised' },
  });
  expect(forgot.status).toBe(201);
});

afterAll(async () => {
  await server?.close();
  await registry?.close();
  cleanup?.();
});

describe('POST /memory/supersede with force', () => {
  it('is FORGOTTEN without force, appending nothing, and writes with a resurfaced event with force', async () => {
    const body = { project: 'alpha', ref: KEPT, by: GONE, reason: 'raised after all' };
    const before = await logTypes();
    const refused = await call(server.url, 'POST', '/memory/supersede', { token, body });
    expect(refused.body.error.code).toBe('FORGOTTEN');
    expect(await logTypes()).toEqual(before);
    const forced = await call(server.url, 'POST', '/memory/supersede', {
      token,
      body: { ...body, force: true },
    });
    expect(forced.status).toBe(201);
    expect(forced.body).toMatchObject({
      type: 'superseded',
      target: contentSha256(KEPT),
      after_sha256: contentSha256(GONE),
    });
    expect((await logTypes()).slice(before.length)).toEqual(['superseded', 'resurfaced']);
  });

  it('refuses a force that is not a boolean, naming the field', async () => {
    const refused = await call(server.url, 'POST', '/memory/supersede', {
      token,
      body: { project: 'alpha', ref: KEPT, by: 'Another text.', reason: 'x', force: 'yes' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('INVALID_INPUT');
  });
});
