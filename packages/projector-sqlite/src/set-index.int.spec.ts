import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { contentSha256, seededRandom, uniformLines } from '@mem/core';
import { projectStretch } from '@mem/engine';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainEvents, projected, tempRoot } from '../test/support.js';
import { itemStorePath } from './store-files.js';
import { keywordStatisticsReader, type ReachableSet } from './keyword-statistics.js';
import { projectorSqlite } from './projector.js';
import { SET_INDEX_AFTER_READS } from './set-index.js';

/*
 * A small reachable set's own index (set-index.ts) answers every postings and frequency read
 * with node_fts's rows: compared, token by token, with a reader that never indexes a set, on a
 * seeded store of four projects (lines of superseded memory chains, evidence, reference
 * passages, a tombstone), before and after another connection writes.
 */

const PROJECTS = ['p0', 'p1', 'p2', 'p3'];
const sha = (text: string) => contentSha256(text);

/** One project's payloads: 6 chains of 6 memories (lines kept and dropped), 120 R passages. */
function payloadsOf(project: string, seed: number, runs = 'run'): Record<string, unknown>[] {
  const random = seededRandom(seed);
  const vocabulary = Array.from({ length: 150 }, (_, i) =>
    `w${i}x${project}`.slice(0, 4 + (i % 3)),
  );
  const word = () => vocabulary[Math.floor(random() ** 2 * vocabulary.length)]!;
  const sentence = (n: number) =>
    Array.from({ length: n }, () => (random() < 0.2 ? 'common' : word())).join(' ');
  const out: Record<string, unknown>[] = [];
  for (let q = 0; q < 6; q += 1) {
    const run_id = `${runs}-${q}`;
    out.push({
      type: 'run',
      run_id,
      level: 'L1',
      query_id: `q-${q}`,
      input_level: 'chunk',
      model: 'heuristic',
      chunk_tokens: 5000,
      memory_budget: 1024,
      exit_gate: false,
    });
    const bullets: string[] = [];
    for (let t = 1; t <= 6; t += 1) {
      const evidence = `${sentence(20)} evidence ${project} ${q} ${t}.`;
      out.push({
        type: 'evidence',
        run_id,
        level: 'L0',
        t,
        source: 's',
        text: evidence,
        sha256: sha(evidence),
      });
      bullets.push(`- ${sentence(4 + Math.floor(random() * 8))}.`);
      if (bullets.length > 4) bullets.shift();
      const text = bullets.join('\n');
      out.push({
        type: 'memory',
        run_id,
        level: 'L1',
        t,
        text,
        tokens: 40,
        parents: [sha(evidence)],
        sha256: sha(text),
        lines: uniformLines(text, [sha(evidence)]),
      });
    }
  }
  for (let r = 0; r < 120; r += 1) {
    const text = `${sentence(10 + (r % 30))} passage ${r}.`;
    out.push({
      type: 'reference',
      level: 'R',
      source: `docs:m.md#${r}`,
      heading_path: [],
      text,
      sha256: sha(text),
    });
  }
  return out;
}

const SETS: ReachableSet[] = [
  ...PROJECTS.map((p): ReachableSet => ({ projects: [p], levels: ['L1', 'L2', 'I'] })),
  { projects: ['p1'], levels: ['L1'], includeSuperseded: true },
  { projects: ['p0', 'p2'], levels: ['L1', 'L0'] },
  // Most of the index: never indexed (SET_INDEX_SHARE), read from node_fts.
  { projects: [...PROJECTS, 'p4'], levels: ['L0', 'L1', 'R'] },
  // No node yet: another connection writes it.
  { projects: ['p4'], levels: ['L1', 'L2', 'I'] },
];

let root: ReturnType<typeof tempRoot>;
let file: string;

/** Projects `payloads` as a new project's chain and seals: another connection's write. */
async function project(projectName: string, payloads: Record<string, unknown>[]): Promise<void> {
  const handle = await projectorSqlite.init(root.target);
  await projectStretch(
    projectorSqlite,
    handle,
    projectName,
    projected(chainEvents(projectName, payloads)),
  );
  await projectorSqlite.seal(handle);
  await projectorSqlite.close(handle);
}

beforeAll(async () => {
  root = tempRoot();
  const handle = await projectorSqlite.init(root.target);
  for (const [i, p] of PROJECTS.entries())
    await projectStretch(
      projectorSqlite,
      handle,
      p,
      projected(chainEvents(p, payloadsOf(p, 11 + i))),
    );
  await projectorSqlite.seal(handle);
  await projectorSqlite.close(handle);
  file = itemStorePath(root.target.stateDir);
});
afterAll(() => root.cleanup());

/** Every token node_fts holds, in order. */
function tokensOf(db: Database.Database): string[] {
  db.exec(
    'CREATE VIRTUAL TABLE IF NOT EXISTS temp.all_terms USING fts5vocab (main, node_fts, row)',
  );
  return db.prepare('SELECT term FROM temp.all_terms ORDER BY term').pluck().all() as string[];
}

/** Each read of `reader` for every token and set: whole postings, the first 3, a few ids, the frequency. */
function reads(reader: ReturnType<typeof keywordStatisticsReader>, tokens: readonly string[]) {
  return SETS.map((set) => ({
    statistics: reader.statistics(set),
    tokens: tokens.map((token) => {
      const all = reader.postings(token, set);
      return {
        all,
        first: reader.postings(token, set, { limit: 3 }),
        some: reader.postings(token, set, {
          ids: all.filter((_, i) => i % 2 === 0).map((p) => p.id),
        }),
        df: reader.frequency(token, set),
      };
    }),
  }));
}

describe('a reachable set read from its own index', () => {
  it('reads the rows node_fts gives, before and after another connection writes', async () => {
    const db = new Database(file, { readonly: true });
    const plain = new Database(file, { readonly: true });
    try {
      const indexed = keywordStatisticsReader(db);
      const reference = keywordStatisticsReader(plain, { setIndexes: false });
      const tokens = tokensOf(plain);
      expect(tokens.length).toBeGreaterThan(300);
      // Past SET_INDEX_AFTER_READS on the first pass: every set small enough is indexed.
      expect(tokens.length).toBeGreaterThan(SET_INDEX_AFTER_READS);
      const expected = reads(reference, tokens);
      expect(expected.flatMap((s) => s.tokens).some((t) => t.all.length > 0)).toBe(true);
      expect(reads(indexed, tokens)).toEqual(expected);
      expect(reads(indexed, tokens)).toEqual(expected);

      // In memory only, never a temp file: the indexes hold the sets' tokens.
      expect(db.pragma('temp_store', { simple: true })).toBe(2);
      const pooled = db
        .prepare(`SELECT name FROM temp.sqlite_master WHERE name GLOB 'set_fts_*_row'`)
        .pluck()
        .all() as string[];
      const indexedTokens = () =>
        pooled.reduce(
          (sum, name) =>
            sum + (db.prepare(`SELECT count(*) FROM temp.${name}`).pluck().get() as number),
          0,
        );
      expect(pooled.length).toBeGreaterThanOrEqual(4);
      expect(indexedTokens()).toBeGreaterThan(0);

      // Another connection writes: each set is read afresh, and indexed afresh; until then the
      // indexes of the old contents are emptied (a forgotten text's tokens leave with them).
      await project('p4', payloadsOf('p4', 99).slice(0, 60));
      indexed.statistics(SETS[0]!);
      expect(indexedTokens()).toBe(0);
      const after = tokensOf(plain);
      const changed = reads(reference, after);
      expect(changed).not.toEqual(expected);
      expect(reads(indexed, after)).toEqual(changed);
    } finally {
      db.close();
      plain.close();
    }
  });

  it('once indexed, a small set no longer reads node_fts (its index emptied on the same connection)', () => {
    // A copy, so node_fts can be emptied through the reader's own connection: data_version
    // does not move, and the set's own index is all that can still answer.
    const copy = join(root.root, 'emptied.sqlite');
    copyFileSync(file, copy);
    const db = new Database(copy);
    try {
      const reader = keywordStatisticsReader(db);
      const small = SETS[0]!;
      const large = SETS[SETS.length - 2]!;
      const other = new Database(copy, { readonly: true });
      const plain = keywordStatisticsReader(other, { setIndexes: false });
      const tokens = tokensOf(other)
        .filter((t) => plain.postings(t, small).length > 0)
        .slice(0, 40);
      other.close();
      expect(tokens).toHaveLength(40);
      const before = tokens.map((t) => [reader.postings(t, small), reader.postings(t, large)]);
      expect(before.some(([s]) => s!.length > 0)).toBe(true);
      db.exec(`INSERT INTO node_fts (node_fts) VALUES ('delete-all')`);
      const after = tokens.map((t) => [reader.postings(t, small), reader.postings(t, large)]);
      expect(after.map(([s]) => s)).toEqual(before.map(([s]) => s));
      // The large set is read from node_fts, now empty.
      expect(after.every(([, l]) => l!.length === 0)).toBe(true);
    } finally {
      db.close();
    }
  });

  it('a set that gives its table way leaves it empty, so no old text outlives a change of the store', async () => {
    // The store itself (this case runs last): the write below must reach this connection.
    const db = new Database(file, { readonly: true });
    const other = new Database(file, { readonly: true });
    try {
      const probe = keywordStatisticsReader(other, { setIndexes: false });
      const small = SETS.slice(0, 4).map((set) => ({ set, tokens: probe.statistics(set).tokens }));
      // Two sets fill the pool's token cap; a third, larger than the older one, must push both
      // out (the cap would still be passed with only the older gone) and take one table.
      small.sort((a, b) => a.tokens - b.tokens);
      const [a, b] = [small[0]!, small[1]!];
      const c = small.find(
        (x) => x !== a && x !== b && x.tokens > a.tokens && x.tokens <= a.tokens + b.tokens,
      )!;
      expect(c).toBeDefined();
      const reader = keywordStatisticsReader(db, {
        setIndexPool: { tables: 16, tokens: a.tokens + b.tokens },
      });
      const token = tokensOf(db).find((t) => probe.postings(t, a.set).length > 0)!;
      const earn = (set: ReachableSet) => {
        for (let i = 0; i <= SET_INDEX_AFTER_READS; i += 1) reader.postings(token, set);
      };
      /** How many pooled tables hold any token. */
      const filled = () =>
        (
          db
            .prepare("SELECT name FROM temp.sqlite_master WHERE name GLOB 'set_fts_[0-9]*_row'")
            .pluck()
            .all() as string[]
        ).filter(
          (name) => (db.prepare(`SELECT count(*) FROM temp.${name}`).pluck().get() as number) > 0,
        ).length;
      earn(a.set);
      earn(b.set);
      expect(filled()).toBe(2);
      earn(c.set);
      expect(filled()).toBe(1);
      // Another connection writes; the next read empties every table.
      await project('p5', payloadsOf('p5', 99, 'pool'));
      reader.postings(token, a.set);
      expect(filled()).toBe(0);
    } finally {
      db.close();
      other.close();
    }
  });
});
