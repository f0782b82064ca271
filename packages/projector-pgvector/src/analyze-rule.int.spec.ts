import { afterAll, describe, expect, it, vi } from 'vitest';
import { hashEmbedder } from '@mem/embed';
import { projectStretch } from '@mem/engine';
import { usePglite } from '../test/pglite-servers.js';
import { chainEvents, payload, projected, tempTargets } from '../test/support.js';
import { projectorPgvector } from './projector.js';
import { sharedSchemaFor } from './schema/identifiers.js';

/*
 * Stop 33 (board "Catch-up contract"): the projection had two ANALYZE rules, one at seal and one
 * after every batch whose pg_class check (every table's pg_relation_size) cost 40–80 ms a batch
 * at 10 k, a one-event catch-up too, when nothing grew. One rule now: the rows a batch writes
 * are counted against the pages the tables may still grow (a row adds at most a page), and the
 * check runs only once they may have.
 */
const shared = usePglite();

describe('the one ANALYZE rule', () => {
  const temp = tempTargets();
  afterAll(() => temp.cleanup());

  it('analyzes what a first batch grew, skips the check for one-event batches, and checks again once their rows may have grown a table', async () => {
    const target = temp.target();
    const schema = sharedSchemaFor(target.stateDir);
    const projector = projectorPgvector({ pglite: shared.db, embedder: hashEmbedder(16) });
    const handle = await projector.init(target);
    const events = projected(
      chainEvents(
        'docs',
        Array.from({ length: 640 }, (_, i) => payload.reference(`passage ${i} on flags`)),
      ),
    );
    const analyzed = async () => {
      await shared.db.query('SELECT pg_stat_force_next_flush()');
      const { rows } = await shared.db.query<{ relname: string }>(
        'SELECT relname FROM pg_stat_user_tables WHERE schemaname = $1 AND analyze_count > 0 ORDER BY 1',
        [schema],
      );
      return rows.map((r) => r.relname);
    };
    const checks: string[] = [];
    const query = vi.spyOn(shared.db, 'query');
    const exec = vi.spyOn(shared.db, 'exec');
    const seen = () => {
      for (const call of [...query.mock.calls, ...exec.mock.calls])
        if (String(call[0]).includes('pg_relation_size')) checks.push(String(call[0]));
      query.mockClear();
      exec.mockClear();
    };
    try {
      // No statistics yet: the first batch grows the node table past the rule, seal or none.
      await projectStretch(projector, handle, 'docs', events.slice(0, 600));
      seen();
      expect(checks).toHaveLength(1);
      expect(await analyzed()).toContain('memory_node');
      // A one-event batch writes a few rows: no table can have grown a tenth and 8 pages.
      checks.length = 0;
      await projectStretch(projector, handle, 'docs', events.slice(600, 601));
      seen();
      expect(checks).toEqual([]);
      // One-event batches whose rows add up past a table's slack (3 node and 3 vector rows a
      // reference, ~9 rows of slack on these 16-page tables): the check runs again, not each time.
      for (let i = 601; i < 640; i++) {
        await projectStretch(projector, handle, 'docs', events.slice(i, i + 1));
        seen();
      }
      expect(checks.length).toBeGreaterThan(0);
      expect(checks.length).toBeLessThan(39);
    } finally {
      query.mockRestore();
      exec.mockRestore();
      await projector.close(handle);
    }
  });
});
