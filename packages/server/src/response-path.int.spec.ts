import { get } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Registry } from '@mem/registry';
import {
  memoryPayloads,
  mint,
  registryAt,
  seedIdentity,
  tempDataRoot,
} from '../../../test/api/support.js';
import { startServer, type RunningServer } from './serve.js';

/*
 * Issue 15 target 3: an answer leaves as the string the route made it, in one write. The
 * version header was set after the route had answered, which re-made the response around its
 * body as a stream: the adapter then read it back chunk by chunk (ReadableStream readers, a
 * timer when a chunk was late) before writing it. The client here is node:http, which reads
 * no web stream, so every reader counted is the server's.
 */
let cleanup: () => void;
let registry: Registry;
let server: RunningServer;
let token: string;

beforeAll(async () => {
  const made = tempDataRoot(['alpha']);
  cleanup = made.cleanup;
  registry = await registryAt(made.root);
  await seedIdentity(registry, { alice: ['alpha'] });
  token = (await mint(registry, { principal: 'alice' })).secret;
  await registry.context.engine.append(
    'alpha',
    memoryPayloads('run-1', 'the flaky build was the lockfile', '- The lockfile drifted').payloads,
    { kind: 'cli' },
  );
  server = await startServer(registry, { port: 0, rateLimits: { burstPerSecond: 0 } });
}, 120_000);
afterAll(async () => {
  await server.close();
  await registry.close();
  cleanup();
});

function fetched(path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; version: unknown; body: string }>((resolve, reject) => {
    get(`${server.url}${path}`, { headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode!, version: res.headers['x-mem-version'], body }),
      );
    }).on('error', reject);
  });
}

describe('HTTP answers', () => {
  it('leave without a stream read back, each with the version header', async () => {
    const readers = vi.spyOn(ReadableStream.prototype, 'getReader');
    try {
      const answers = [
        await fetched('/version'),
        await fetched('/memory/query?query=lockfile&project=alpha', { apikey: token }),
        await fetched('/memory/query?query=lockfile'),
        await fetched('/nowhere', { apikey: token }),
      ];
      expect(answers.map((a) => [a.status, a.version])).toEqual([
        [200, '0.0.0-test'],
        [200, '0.0.0-test'],
        [401, '0.0.0-test'],
        [404, '0.0.0-test'],
      ]);
      expect(JSON.parse(answers[1]!.body).results[0].text).toBe('The lockfile drifted');
      expect(readers).not.toHaveBeenCalled();
    } finally {
      readers.mockRestore();
    }
  });
});
