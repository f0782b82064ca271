import { afterAll, describe, expect, it } from 'vitest';
import type { Payload } from '@mem/core';
import { hashEmbedder } from '@mem/embed';
import { usePglite } from '../test/pglite-servers.js';
import { projectStretch } from '@mem/engine';
import { chainEvents, payload, projected, sha, tempTargets } from '../test/support.js';
import { projectorPgvector } from './projector.js';
import { quoteIdent, sharedSchemaFor } from './schema/identifiers.js';

/*
 * refresh_lines runs after every memory event of a catch-up (a new head retires the lines only
 * the old one held). Its cost must not grow with the memory's history: an ingest of a long
 * transcript moves one standing query's memory hundreds of times, and lines kept from the first
 * version have an edge to every version since. Measured in buffer pages Postgres touched for one
 * call on the head (EXPLAIN counts what the function's own statements read), on a chain of 20
 * versions and one of 80: five lines every version keeps, and one that changes each time.
 * Planner-dependent: with fresh statistics (after a seal's ANALYZE) the old functions were flat
 * here too; measured at load ~8: old 209 -> 1,175 pages, new 87 -> 181 (line_live on the head's
 * lines 38 -> 45).
 */
const KEPT = ['Kong buffered the body', 'CI flake', 'CoreDNS cached', 'pg raced', 'disk full'];

function chain(versions: number): Payload[] {
  const events: Payload[] = [payload.run('r1'), payload.evidence('r1', 1, 'evidence one')];
  for (let v = 1; v <= versions; v++) {
    const text = [...KEPT, `finding ${v}`].map((line) => `- ${line}`).join('\n');
    events.push(payload.memory('r1', v, text, ['evidence one']));
  }
  return events;
}

const shared = usePglite();

describe('refresh_lines cost', () => {
  const temp = tempTargets();
  afterAll(() => temp.cleanup());

  /** Buffer pages one refresh_lines on the head of a `versions`-long chain touches. */
  async function pagesForHead(versions: number): Promise<number> {
    const target = temp.target();
    const projector = projectorPgvector({ pglite: shared.db, embedder: hashEmbedder(16) });
    const handle = await projector.init(target);
    // Measured before the seal, as mid catch-up: its ANALYZE has not run, the statistics are stale.
    await projectStretch(
      projector,
      handle,
      'demo',
      projected(chainEvents('demo', chain(versions))),
    );
    await projector.close(handle);
    const s = quoteIdent(sharedSchemaFor(target.stateDir));
    const head = [...KEPT, `finding ${versions}`].map((line) => `- ${line}`).join('\n');
    const { rows: live } = await shared.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${s}.memory_vector WHERE live AND kind = 'text'`,
    );
    // The head's six lines are live, and only they: the refresh has something real to keep.
    expect(live[0]?.n).toBe(KEPT.length + 1);
    const { rows } = await shared.db.query<{ 'QUERY PLAN': [{ Plan: Record<string, number> }] }>(
      `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) SELECT ${s}.refresh_lines('demo', ARRAY[$1])`,
      [sha(head)],
    );
    const plan = rows[0]!['QUERY PLAN'][0].Plan;
    return plan['Shared Hit Blocks']! + plan['Shared Read Blocks']!;
  }

  it('touches under 3x the pages after 80 versions of a memory as after 20 (5.6x before: O(history) per call)', async () => {
    const short = await pagesForHead(20);
    const long = await pagesForHead(80);
    expect(short).toBeGreaterThan(0);
    expect(long / short).toBeLessThan(3);
  });
});
