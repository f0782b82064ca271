import { join } from 'node:path';
import { projectStretch } from '@mem/engine';
import { contentSha256, uniformLines } from '@mem/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chainEvents, projected, tempRoot } from '../test/support.js';
import { openItemStore, type ItemStore } from './item-store.js';
import { projectorSqlite } from './projector.js';

/* The query package's read methods: keywordRecall (filters inside the FTS5 statement) and matchedTerms. */

const sha = (text: string) => contentSha256(text);
const run = (run_id: string, query_id: string) => ({
  type: 'run',
  run_id,
  level: 'L1',
  query_id,
  input_level: 'chunk',
  model: 'heuristic',
  chunk_tokens: 5000,
  memory_budget: 1024,
  exit_gate: false,
});
const evidence = (run_id: string, t: number, text: string) => ({
  type: 'evidence',
  run_id,
  level: 'L0',
  t,
  source: 'claude:s',
  text,
  sha256: sha(text),
});
const memory = (run_id: string, t: number, text: string, parent: string) => ({
  type: 'memory',
  run_id,
  level: 'L1',
  t,
  text,
  tokens: 5,
  parents: [sha(parent)],
  sha256: sha(text),
  lines: uniformLines(text, [sha(parent)]),
});
const reference = (text: string) => ({
  type: 'reference',
  level: 'R',
  source: 'docs:kong.md',
  heading_path: [],
  text,
  sha256: sha(text),
});

const E = 'Kong buffered the request body.';
const OLD = '- Kong buffered bodies.';
const HEAD = '- Kong buffered bodies over 10KB; proxy-body-size fixed it.';
const GONE = '- Kong was retired in August.';

describe('keywordRecall and matchedTerms', () => {
  let root: ReturnType<typeof tempRoot>;
  let store: ItemStore;
  beforeEach(async () => {
    root = tempRoot();
    const handle = await projectorSqlite.init(root.target);
    const demo = [
      run('r', 'infra'),
      evidence('r', 1, E),
      memory('r', 1, OLD, E),
      memory('r', 2, HEAD, E),
      run('g', 'retired'),
      memory('g', 1, GONE, E),
      { type: 'tombstone', target: sha(GONE), reason: 'wrong' },
      ...Array.from({ length: 30 }, (_, i) => reference(`Kong Kong body buffering, part ${i}.`)),
    ];
    await projectStretch(projectorSqlite, handle, 'demo', projected(chainEvents('demo', demo)));
    await projectStretch(
      projectorSqlite,
      handle,
      'other',
      projected(
        chainEvents('other', [run('o', 'infra'), evidence('o', 1, E), memory('o', 1, HEAD, E)]),
      ),
    );
    await projectorSqlite.seal(handle);
    await projectorSqlite.close(handle);
    store = openItemStore(join(root.target.stateDir, 'items.sqlite'));
  });
  afterEach(() => {
    store.close();
    root.cleanup();
  });

  it('applies project and level filters before LIMIT: 30 better-matching R passages do not crowd out the L1', () => {
    const hits = store.keywordRecall('"kong" OR "body"', {
      projects: ['demo'],
      levels: ['L1'],
      limit: 1,
    });
    expect(hits.map((h) => [h.node.project, h.node.level, h.node.text])).toEqual([
      ['demo', 'L1', HEAD],
    ]);
    expect(
      store.keywordRecall('"kong" OR "body"', { projects: ['demo'], levels: ['R'], limit: 100 }),
    ).toHaveLength(30);
  });

  it('never returns a superseded or tombstoned node; empty filters recall nothing', () => {
    const texts = store
      .keywordRecall('"kong"', {
        projects: ['demo', 'other'],
        levels: ['L0', 'L1', 'L2'],
        limit: 100,
      })
      .map((h) => `${h.node.project}:${h.node.text}`);
    expect(texts.sort()).toEqual(
      [`demo:${E}`, `demo:${HEAD}`, `other:${E}`, `other:${HEAD}`].sort(),
    );
    expect(store.keywordRecall('"kong"', { projects: [], levels: ['L1'], limit: 10 })).toEqual([]);
    expect(store.keywordRecall('"kong"', { projects: ['demo'], levels: [], limit: 10 })).toEqual(
      [],
    );
  });

  it('scores are positive BM25, best first, ties by node id', () => {
    const hits = store.keywordRecall('"kong" OR "proxy"', {
      projects: ['demo', 'other'],
      levels: ['L1'],
      limit: 10,
    });
    expect(hits.every((h) => h.bm25 > 0)).toBe(true);
    for (let i = 1; i < hits.length; i += 1) {
      const [a, b] = [hits[i - 1]!, hits[i]!];
      expect(a.bm25 > b.bm25 || (a.bm25 === b.bm25 && a.node.id < b.node.id)).toBe(true);
    }
  });

  it('keyword statistics count the live nodes of the reachable set alone, in FTS5 tokens', () => {
    // demo's live L1 is HEAD alone (OLD is superseded, GONE tombstoned): 10 tokens ("10kb" is one, "proxy-body-size" three).
    expect(store.keywordStatistics({ projects: ['demo'], levels: ['L1'] })).toEqual({
      nodes: 1,
      tokens: 10,
    });
    expect(store.keywordStatistics({ projects: ['demo', 'other'], levels: ['L1'] })).toEqual({
      nodes: 2,
      tokens: 20,
    });
    expect(store.keywordStatistics({ projects: ['nope'], levels: ['L1'] })).toEqual({
      nodes: 0,
      tokens: 0,
    });
  });

  it('ftsTokens answers a call of known and new terms when the new ones fill its cache', () => {
    // 4,096 terms are kept (keyword-statistics.ts); a pasted log brings up to 32 at once.
    // One call of 4,096 new terms leaves the cache full, whatever it held before.
    const fillers = Array.from({ length: 4_096 }, (_, i) => `filler${i}`);
    expect(store.ftsTokens(fillers)).toEqual(fillers.map((term) => [term]));
    expect(store.ftsTokens(['filler7', 'Buffering', 'newword'])).toEqual([
      ['filler7'],
      ['buffer'],
      ['newword'],
    ]);
    expect(store.ftsTokens(['filler7', 'Buffering'])).toEqual([['filler7'], ['buffer']]);
  });

  it('ftsTokens tokenises as node_fts does; tokenPostings stay inside the set', () => {
    expect(store.ftsTokens(['Buffering', 'Kong', 'café'])).toEqual([
      ['buffer'],
      ['kong'],
      ['cafe'],
    ]);
    // A keyword recall's L1 answers are lines: HEAD is one line, its list marker is layout.
    const posting = (project: string, text: string) => ({
      id: store.line(project, 'L1', sha(text.replace(/^- /, '')))!.id,
      tf: 1,
      length: 10,
    });
    expect(store.tokenPostings('buffer', { projects: ['demo'], levels: ['L1'] })).toEqual([
      posting('demo', HEAD),
    ]);
    const both = store.tokenPostings('kong', { projects: ['demo', 'other'], levels: ['L1'] });
    expect(both).toEqual(
      [posting('demo', HEAD), posting('other', HEAD)].sort((a, b) => a.id - b.id),
    );
    expect(
      store.tokenPostings('kong', { projects: ['demo'], levels: ['R'] }).map((p) => p.tf),
    ).toEqual(Array(30).fill(2));
    expect(store.nodesById([both[1]!.id, both[0]!.id]).map((n) => n.id)).toEqual([
      both[1]!.id,
      both[0]!.id,
    ]);
  });

  it('tokenFrequency counts the live nodes of the set; tokenPostings with ids reads only those, with a limit the first', () => {
    const demoL1R = { projects: ['demo'], levels: ['L1', 'R'] as const };
    // HEAD's line and 30 passages; not the superseded OLD, the tombstoned GONE, nor other's HEAD.
    expect(store.tokenFrequency('kong', demoL1R)).toBe(31);
    expect(store.tokenFrequency('kong', { projects: ['demo', 'other'], levels: ['L1'] })).toBe(2);
    expect(store.tokenFrequency('nowhere', demoL1R)).toBe(0);
    const all = store.tokenPostings('kong', demoL1R);
    const some = [all[3]!.id, all[0]!.id, store.line('other', 'L1', sha(HEAD.slice(2)))!.id];
    // Only the asked ids, still inside the set (other's line is not in it), by id.
    expect(store.tokenPostings('kong', demoL1R, { ids: some })).toEqual([all[0], all[3]]);
    expect(store.tokenPostings('kong', demoL1R, { ids: [] })).toEqual([]);
    expect(store.tokenPostings('kong', demoL1R, { limit: 2 })).toEqual(all.slice(0, 2));
  });

  it('matchedTerms says which expressions each node holds, stemmed as FTS5 stems', () => {
    const [head] = store.keywordRecall('"buffering"', {
      projects: ['demo'],
      levels: ['L1'],
      limit: 1,
    });
    const matched = store.matchedTerms(
      ['"kong"', '"buffering"', '"10kb"', '"nginx"'],
      [head!.node.id, 999],
    );
    expect([...matched]).toEqual([[head!.node.id, [0, 1, 2]]]);
    expect(store.matchedTerms([], [head!.node.id]).size).toBe(0);
  });
});
