import { createHash } from 'node:crypto';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { judgeItem } from './freshness.js';

/*
 * The one rule a read holds a curated item back by (query and find_items both call it): a
 * fresh item passes unnamed; a past TTL or a cited file that changed holds it back, named, and
 * include_stale delivers it, still named. Its source is re-read, not taken on trust.
 */
const root = realpathSync(mkdtempSync(join(tmpdir(), 'mem-judge-item-')));
writeFileSync(join(root, 'runbook.md'), 'Deploys go blue.\n');
afterAll(() => rmSync(root, { recursive: true, force: true }));
/** A cited file's digest as a write records it: of its bytes. */
const digest = (bytes: string) => createHash('sha256').update(bytes).digest('hex');

const now = new Date('2026-03-01T12:00:00.000Z');
const fact = (over: Record<string, string | null> = {}) => ({
  id: 'it-000000000001',
  project: 'demo',
  type: 'fact' as const,
  status: 'open' as const,
  opened_ts: null,
  valid_until: null,
  review_after: null,
  source_uri: null,
  source_sha256: null,
  ...over,
});

describe('judgeItem', () => {
  it('passes a fresh item unnamed, its cited file read as it was', async () => {
    const cited = fact({
      source_uri: 'runbook.md',
      source_sha256: digest('Deploys go blue.\n'),
    });
    expect(await judgeItem(cited, now, root, false)).toEqual({
      source: 'unchanged',
      warning: null,
      held: false,
    });
    expect(await judgeItem(fact(), now, root, false)).toEqual({
      source: null,
      warning: null,
      held: false,
    });
  });

  it('holds back an item past its TTL, named; include_stale delivers it, still named', async () => {
    const expired = fact({ valid_until: '2026-02-01T00:00:00.000Z' });
    const held = await judgeItem(expired, now, root, false);
    expect(held).toMatchObject({
      held: true,
      warning: { id: expired.id, state: 'expired', reason: 'expired', delivered: false },
    });
    const delivered = await judgeItem(expired, now, root, true);
    expect(delivered).toMatchObject({
      held: false,
      warning: { id: expired.id, state: 'expired', delivered: true },
    });
  });

  it('re-reads the cited file: one that changed since it was cited holds the item back', async () => {
    const moved = fact({
      source_uri: 'runbook.md',
      source_sha256: digest('Deploys go green.\n'),
    });
    expect(await judgeItem(moved, now, root, false)).toMatchObject({
      source: 'changed',
      held: true,
      warning: { state: 'stale', reason: 'source_changed', next_action: 'correct' },
    });
  });
});
