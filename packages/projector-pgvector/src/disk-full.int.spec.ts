import { mkdtempSync, rmSync } from 'node:fs';
import { projectStretch } from '@mem/engine';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isMemError, type Payload } from '@mem/core';
import { hashEmbedder } from '@mem/embed';
import { afterEach, describe, expect, it } from 'vitest';
import { mountTmpfs, tmpfsSupport, type SmallTmpfs } from '../../../test/support/tmpfs.js';
import { chainEvents, payload, projected } from '../test/support.js';
import { projectorPgvector } from './projector.js';
import { testConfig } from '../../../test/support/test-config.js';

/*
 * The embedded Postgres on a full disk: PGlite says SQLSTATE 53100 ("could not extend file"),
 * which must reach the caller as NO_SPACE naming the projection's directory, not as an untyped
 * PROJECTION_FAILED; the batch is rolled back, so projecting it again once there is room works.
 */
const support = tmpfsSupport();
const onTmpfs = support.ok ? describe : describe.skip;
let base: string | undefined;
let fs: SmallTmpfs | undefined;
afterEach(() => {
  fs?.unmount();
  fs = undefined;
  if (base) rmSync(base, { recursive: true, force: true });
  base = undefined;
});

function run(runId: string, count: number): Payload[] {
  const out: Payload[] = [payload.run(runId)];
  for (let t = 1; t <= count; t += 1) {
    const evidence = `${runId} ${t}: the disk filled up while the build wrote its cache, ${'and kept writing '.repeat(400)}`;
    out.push(
      payload.evidence(runId, t, evidence),
      payload.memory(runId, t, `${runId} ${t}: a full disk broke the build`, [evidence]),
    );
  }
  return out;
}

onTmpfs(
  support.ok ? 'pgvector on a full disk' : `pgvector on a full disk (skipped: ${support.reason})`,
  () => {
    it('says NO_SPACE naming the embedded Postgres directory, and projects the batch once there is room', async () => {
      base = mkdtempSync(join(tmpdir(), 'mem-pg-nospace-'));
      const stateDir = join(base, '.mem');
      fs = mountTmpfs(stateDir, 128 * 1024 * 1024);
      const projector = projectorPgvector({ embedder: hashEmbedder(64), config: testConfig() });
      const target = { stateDir, vaultDir: join(base, 'vault'), options: {} };
      const events = chainEvents('demo', [...run('run-1', 2), ...run('run-2', 400)]);
      const handle = await projector.init(target);
      try {
        await projectStretch(projector, handle, 'demo', projected(events.slice(0, 5)));
        fs.fill(0);
        const error = await projectStretch(
          projector,
          handle,
          'demo',
          projected(events.slice(5)),
        ).then(
          () => null,
          (e: unknown) => e,
        );
        expect(isMemError(error) && error.code, String(error)).toBe('NO_SPACE');
        expect(isMemError(error) && error.details).toMatchObject({
          path: join(stateDir, 'pg'),
          projector: 'pgvector',
        });
        expect((error as Error).message).toContain(join(stateDir, 'pg'));
        expect(await projector.position(handle, 'demo')).toMatchObject({ seq: 5 });

        fs.drain();
        await projectStretch(projector, handle, 'demo', projected(events.slice(5)));
        expect(await projector.position(handle, 'demo')).toMatchObject({ seq: events.length });
      } finally {
        await projector.close(handle);
      }
    }, 180_000);
  },
);
