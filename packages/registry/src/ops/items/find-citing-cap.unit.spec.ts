import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hasErrorCode } from '@mem/core';
import type { CitingRow, ItemFindQuery } from '@mem/projector-sqlite';
import { judgedCiting } from './find.js';
import { citingScope } from './source-check.js';

/*
 * Issue 13 §2: find_items judges every match citing a source before its statement. Past a cap
 * (MAX_JUDGED_CITING) it refuses, typed, rather than answer a total it did not judge.
 */
const root = mkdtempSync(join(tmpdir(), 'mem-citing-cap-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const scope = () => citingScope({ root, queriesDir: join(root, 'queries') });

const query: ItemFindQuery = {
  projects: ['alpha'],
  attention: ['active', 'reference'],
  recencyWeight: 1,
  includeDeleted: false,
  includeStale: false,
  now: new Date('2031-01-01T00:00:00Z'),
  limit: 20,
  offset: 0,
  candidates: 1000,
  heldBackLimit: 20,
};

const rows = (n: number): CitingRow[] =>
  Array.from({ length: n }, (_, i) => ({
    project: 'alpha',
    id: `it-${String(i).padStart(12, '0')}`,
    type: 'fact',
    status: null,
    opened_ts: null,
    valid_until: null,
    review_after: null,
    source_uri: `gone-${i}.md`,
    source_sha256: '0'.repeat(64),
    created_seq: i + 1,
  }));

/** A store whose matches cite `n` sources; it records the limit it was asked for. */
function store(n: number) {
  const asked: number[] = [];
  return {
    asked,
    citingMatches: (_q: ItemFindQuery, limit: number) => {
      asked.push(limit);
      return rows(n).slice(0, limit);
    },
  };
}

describe('judgedCiting: every citing match judged, or a typed refusal past the cap', () => {
  it('judges every citing match up to the cap (a gone file: held back, source_unreadable)', async () => {
    const items = store(3);
    const judged = await judgedCiting(items, query, scope(), 3);
    expect(items.asked).toEqual([4]);
    expect(judged.size).toBe(3);
    for (const { held, warning } of judged.values()) {
      expect(held).toBe(true);
      expect(warning?.reason).toBe('source_unreadable');
    }
  });

  it('past the cap: INVALID_INPUT naming the cap, nothing judged', async () => {
    const error = await judgedCiting(store(4), query, scope(), 3).catch((e: unknown) => e);
    expect(hasErrorCode(error, 'INVALID_INPUT')).toBe(true);
    expect((error as Error).message).toMatch(/more than 3 matches cite a source/);
    expect((error as { details?: unknown }).details).toEqual({ limit: 3 });
  });

  it('under include_stale the same matches are judged and named, none held', async () => {
    const judged = await judgedCiting(store(2), { ...query, includeStale: true }, scope(), 3);
    expect([...judged.values()].map(({ held, warning }) => [held, warning?.delivered])).toEqual([
      [false, true],
      [false, true],
    ]);
  });
});
