import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { projectStretch } from '@mem/engine';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { contentSha256, lineSignatures, type Payload, uniformLines } from '@mem/core';
import { chainEvents } from '../../../test/support/events.js';
import { openItemStore } from './item-store.js';
import { projectorSqlite } from './projector.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const RUN: Payload = {
  type: 'run',
  run_id: 'r1',
  level: 'L1',
  query_id: 'tool-failures',
  input_level: 'chunk',
  model: 'heuristic',
  chunk_tokens: 5000,
  memory_budget: 1024,
  exit_gate: false,
};

/** A memory whose lines each name the signatures of `failures` where given (index → raw lines). */
function memory(
  t: number,
  evidence: string,
  lines: string[],
  failures: Record<number, string[]>,
): Payload[] {
  const sha = contentSha256(evidence);
  const text = lines.map((l) => `- ${l}`).join('\n');
  return [
    {
      type: 'evidence',
      run_id: 'r1',
      level: 'L0',
      t,
      source: 'claude:s',
      text: evidence,
      sha256: sha,
    },
    {
      type: 'memory',
      run_id: 'r1',
      level: 'L1',
      t,
      text,
      tokens: 9,
      parents: [sha],
      sha256: contentSha256(text),
      lines: uniformLines(text, [sha]).map((line, i) => {
        const raw = failures[i];
        if (raw === undefined) return line;
        const signatures = lineSignatures(raw).map((s) => ({
          sig_sha: s.sigSha,
          signature: s.signature,
          tool: s.tool,
        }));
        return { ...line, signatures };
      }),
    },
  ];
}

const ERESOLVE = 'npm ERR! ERESOLVE unable to resolve dependency tree';
const LOG: Payload[] = [
  RUN,
  ...memory(1, 'npm ci failed with ERESOLVE', ['npm ci failed: ERESOLVE; pin react 18'], {
    0: [ERESOLVE],
  }),
  // The same failure again, drawn into a new line a day later (ts: one second per event here).
  ...memory(
    2,
    'npm ci failed again',
    ['npm ci failed: ERESOLVE; pin react 18', 'again: ERESOLVE, pin react'],
    {
      1: [ERESOLVE, "ENOENT: no such file or directory, open '/home/ci/a/config.json'"],
    },
  ),
];

async function project(dir: string, batches: number[]): Promise<void> {
  const target = { stateDir: dir, vaultDir: join(dir, 'vault'), options: {} };
  const events = chainEvents('demo', LOG).map(({ event, hash }) => ({ event, hash }));
  const handle = await projectorSqlite.init(target);
  let at = 0;
  for (const size of batches) {
    await projectStretch(projectorSqlite, handle, 'demo', events.slice(at, at + size));
    at += size;
  }
  await projectorSqlite.seal(handle);
  await projectorSqlite.close(handle);
}

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mem-sig-'));
  dirs.push(dir);
  return dir;
}

describe('failure_signature in the item store', () => {
  it('folds the signatures memory lines carry: count, first and last seen from event data', async () => {
    const dir = tempDir();
    await project(dir, [LOG.length]);
    const store = openItemStore(join(dir, 'items.sqlite'));
    try {
      const [eresolve, enoent] = lineSignatures([
        ERESOLVE,
        "ENOENT: no such file or directory, open '/x/config.json'",
      ]);
      const rows = store.failureSignatures([eresolve!.sigSha, enoent!.sigSha], ['demo']);
      const byTs = chainEvents('demo', LOG)
        .filter(({ event }) => event.type === 'memory')
        .map(({ event }) => event.ts);
      expect(
        rows.map((r) => [r.signature, r.seen_count, r.first_seen, r.last_seen]).sort(),
      ).toEqual(
        [
          [ERESOLVE, 2, byTs[0], byTs[1]],
          ["ENOENT: no such file or directory, open '<path>/config.json'", 1, byTs[1], byTs[1]],
        ].sort(),
      );
      const latest = rows.find((r) => r.sig_sha === eresolve!.sigSha)!;
      expect(latest.line_sha).toBe(contentSha256('again: ERESOLVE, pin react'));
      expect(store.failureSignatures([eresolve!.sigSha], ['other'])).toEqual([]);
    } finally {
      store.close();
    }
  });

  it('is the same file byte for byte whether the log comes in one batch or one event at a time', async () => {
    const once = tempDir();
    const split = tempDir();
    await project(once, [LOG.length]);
    await project(
      split,
      LOG.map(() => 1),
    );
    expect(
      readFileSync(join(split, 'items.sqlite')).equals(readFileSync(join(once, 'items.sqlite'))),
    ).toBe(true);
  });
});
