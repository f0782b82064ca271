import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { call, mint, registryAt, seedIdentity, tempDataRoot } from '../../../test/api/support.js';
import { mountTmpfs, tmpfsSupport } from '../../../test/support/tmpfs.js';
import { startServer } from './serve.js';

/*
 * A full disk over real HTTP: the data root's log is a 256 KiB tmpfs, filled before the
 * request. The caller learns the server has no room (507 NO_SPACE), not a masked 500, and the
 * refused job is not in the log.
 */
const support = tmpfsSupport();
const onTmpfs = support.ok ? describe : describe.skip;
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

onTmpfs(
  support.ok ? 'HTTP on a full disk' : `HTTP on a full disk (skipped: ${support.reason})`,
  () => {
    it('answers 507 NO_SPACE naming the segment, appends nothing, and accepts the job once there is room', async () => {
      const { root, cleanup } = tempDataRoot(['alpha']);
      cleanups.push(cleanup);
      const fs = mountTmpfs(join(root, 'log'), 256 * 1024);
      cleanups.push(() => fs.unmount());
      const registry = await registryAt(root, { runJobs: false });
      cleanups.push(() => registry.close());
      await seedIdentity(registry, { alice: ['alpha'] });
      const alice = (await mint(registry, { principal: 'alice' })).secret;
      const server = await startServer(registry, {
        port: 0,
        rateLimits: { burstPerSecond: 0 },
        log: () => {},
      });
      cleanups.push(() => server.close());

      const job = {
        project: 'alpha',
        source: 'agent:full',
        records: [{ role: 'user', text: 'the disk filled up '.repeat(2000) }],
      };
      const before = await registry.context.engine.head('alpha');
      fs.fill(8 * 1024);
      const refused = await call(server.url, 'POST', '/memory/ingest', { token: alice, body: job });
      expect(refused.status).toBe(507);
      expect(refused.body.error).toMatchObject({
        code: 'NO_SPACE',
        details: { path: join(root, 'log', 'alpha', '000001.jsonl') },
      });
      expect(refused.body.error.message).toContain('no space left on device');
      expect(await registry.context.engine.head('alpha')).toEqual(before);
      expect(await registry.context.engine.verifyLog('alpha')).toMatchObject({ ok: true });

      fs.drain();
      expect(
        (await call(server.url, 'POST', '/memory/ingest', { token: alice, body: job })).status,
      ).toBe(202);
    });
  },
);
