// Test support for packages/log specs: a log in a fresh temp directory, and small payload builders.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Payload } from '@mem/core';

/** A fresh `<tmp>/log` directory and a cleanup that removes it. */
export function tempLogDir(): { dir: string; root: string; cleanup: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'mem-log-'));
  return {
    root,
    dir: join(root, 'log'),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** A tombstone whose reason is `reason`: the cheapest valid payload, with a unique id in it. */
export function tombstone(reason: string): Payload {
  return { type: 'tombstone', target: 'a'.repeat(64), reason };
}

/** `count` tombstones with reasons `<prefix>0`, `<prefix>1`, … */
export function tombstones(count: number, prefix = 't'): Payload[] {
  return Array.from({ length: count }, (_, n) => tombstone(`${prefix}${n}`));
}

/** A clock that starts at `start` and moves one second per call. */
export function steppingClock(start = '2026-08-17T09:00:00.000Z'): () => Date {
  let at = Date.parse(start);
  return () => {
    const now = new Date(at);
    at += 1000;
    return now;
  };
}
