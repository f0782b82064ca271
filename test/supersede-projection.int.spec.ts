import { rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { contentSha256, type Payload } from '@mem/core';
import { evidence, l1Run, memoryOfLines } from '../packages/projector-vault/test/payloads.js';
import { sealedStore } from './support/sealed-store.js';

/*
 * What SQLite keeps of a line's supersessions, whatever the log holds. A second supersession
 * of a line (A→B, then A→C: refused now, but in logs written before, or by hand) set
 * node.superseded_by to C while superseded_line, pgvector and the vault kept B, and confirmed C
 * against A's chunks. A replacement whose text is an existing line's (A→E) took over E's
 * confirmation: E was confirmed through A's chunks, which say nothing of E.
 */
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const [KONG, PG, B, C] = [
  'Kong buffered bodies.',
  'pg raced its mount.',
  'Kong buffers.',
  'Kong streams.',
];
const E1 = 'Kong buffered request bodies over 10KB.';
const E2 = 'The pg container raced its volume mount.';
const sha = contentSha256;
const digest = (n: number) => sha(`span ${n}`);

function base(): Payload[] {
  return [
    l1Run('r1', 'infra'),
    evidence('r1', 1, 'claude:s', E1),
    evidence('r1', 2, 'claude:s', E2),
    memoryOfLines('r1', 2, [
      [KONG, [sha(E1)]],
      [PG, [sha(E2)]],
    ]),
  ];
}

function supersede(text: string, by: string, cited: { chunk: string; digest: string }[]): Payload {
  return {
    type: 'superseded',
    target: sha(text),
    target_kind: 'line',
    before_sha256: sha(text),
    after_sha256: sha(by),
    text: by,
    reason: 'said better',
    cited,
  };
}

function read(path: string) {
  const db = new Database(path, { readonly: true });
  try {
    return {
      supersededBy: db
        .prepare(
          `SELECT DISTINCT superseded_by FROM node WHERE project = 'demo' AND kind = 'line' AND sha256 = ?`,
        )
        .all(sha(KONG)),
      supersededLine: db
        .prepare(`SELECT after_sha256 FROM superseded_line WHERE project = 'demo' AND sha256 = ?`)
        .all(sha(KONG)),
      confirmations: db
        .prepare(
          `SELECT line_sha, chunk_sha, digest FROM line_confirmation WHERE project = 'demo' ORDER BY line_sha, chunk_sha`,
        )
        .all(),
    };
  } finally {
    db.close();
  }
}

describe('a line superseded in the SQLite projection', () => {
  it('keeps the first of two supersessions on every table, and confirms only its successor', async () => {
    const { path } = await sealedStore(dirs, 'mem-supersede-first-', [
      ...base(),
      supersede(KONG, B, [{ chunk: sha(E1), digest: digest(1) }]),
      supersede(KONG, C, [{ chunk: sha(E1), digest: digest(2) }]),
    ]);
    expect(read(path)).toEqual({
      supersededBy: [{ superseded_by: sha(B) }],
      supersededLine: [{ after_sha256: sha(B) }],
      confirmations: [{ line_sha: sha(B), chunk_sha: sha(E1), digest: digest(1) }],
    });
  });

  it('does not confirm an existing line that the replacement repeats, nor clear its own', async () => {
    const { path } = await sealedStore(dirs, 'mem-supersede-existing-', [
      ...base(),
      {
        type: 'confirmed',
        target: sha(PG),
        target_kind: 'line',
        before_sha256: sha(PG),
        cited: [{ chunk: sha(E2), digest: digest(3) }],
      },
      supersede(KONG, PG, [{ chunk: sha(E1), digest: digest(1) }]),
    ]);
    expect(read(path).confirmations).toEqual([
      { line_sha: sha(PG), chunk_sha: sha(E2), digest: digest(3) },
    ]);
  });
});
