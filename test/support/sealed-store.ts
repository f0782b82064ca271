import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Payload } from '@mem/core';
import { projectStretch } from '@mem/engine';
import { itemStorePath, projectorSqlite } from '@mem/projector-sqlite';
import { chainEvents } from './events.js';

/**
 * A sealed SQLite item store of project `demo`'s `payloads`, projected in one stretch, in a new
 * temporary directory named `prefix…` and pushed onto `dirs` for the caller to remove: the
 * store the read-cost specs count bytes on.
 */
export async function sealedStore(
  dirs: string[],
  prefix: string,
  payloads: Payload[],
): Promise<{ path: string; events: ReturnType<typeof chainEvents> }> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  const target = { stateDir: dir, vaultDir: join(dir, 'vault'), options: {} };
  const events = chainEvents('demo', payloads);
  const handle = await projectorSqlite.init(target);
  await projectStretch(
    projectorSqlite,
    handle,
    'demo',
    events.map(({ event, hash }) => ({ event, hash })),
  );
  await projectorSqlite.seal(handle);
  await projectorSqlite.close(handle);
  return { path: itemStorePath(dir), events };
}

/** Bytes this thread read from files (/proc: every pread of a page, cached by the OS or not). */
export function threadBytesRead(): number {
  const io = readFileSync('/proc/thread-self/io', 'utf8');
  return Number(/^rchar: (\d+)$/m.exec(io)![1]);
}
