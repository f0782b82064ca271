// Test support: one initialised embedded Postgres for the whole run (see pglite-template.global.ts).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  embeddedDir,
  openBackend,
} from '../../packages/projector-pgvector/src/backend/open-backend.js';

/** A new state directory's embedded projection, made and closed by the production path. */
export async function makePgliteTemplate(): Promise<{ base: string; dir: string }> {
  const base = mkdtempSync(join(tmpdir(), 'mem-pglite-template-'));
  const backend = await openBackend({}, base, { create: true });
  await backend.client.close();
  return { base, dir: embeddedDir(base) };
}
