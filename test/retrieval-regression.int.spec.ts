import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashEmbedder } from '@mem/embed';
import { queryMemory, type QueryDeps, type QueryResult, type RecallLevel } from '@mem/query';
import { FAKE_MIN_SIMILARITY, fakeEmbedder, fakeVectorRecall } from '../packages/query/test/fake-vectors.js';
import { evidence, filler, memory, reference, run, sha, testStore, tombstone, type Payload, type TestStore } from '../packages/query/test/store.js';

/*
 * The retrieval regression suite (seed 003's eval shape, seed 004's recall suite): small
 * fixture stores, and per query the ids that must come back, in order, and the ids that must
 * never come back — through the real log, the real SQLite projection and queryMemory, on
 * keywords alone and with a (fake) vector side. Fixtures: test/fixtures/retrieval/*.json.
 */

interface FixtureNode {
  id?: string;
  type: 'run' | 'evidence' | 'memory' | 'reference' | 'tombstone';
  run?: string;
  level?: 'L1' | 'L2';
  query?: string | null;
  t?: number;
  text?: string;
  source?: string;
  parents?: string[];
  symptom?: string;
  target?: string;
}

interface FixtureCase {
  name: string;
  query: string;
  projects?: string[];
  levels?: RecallLevel[];
  limit?: number;
  stacks?: Stack[];
  expected?: string[];
  first?: boolean;
  includes?: string[];
  forbidden?: string[];
  abstain?: boolean;
  cites?: Record<string, string[]>;
}

interface Fixture {
  name: string;
  filler?: number;
  projects: Record<string, FixtureNode[]>;
  cases: FixtureCase[];
}

/** keyword: no vector side; vector: the fake bag-of-words embedder; hash: @mem/embed's hash embedder with its measured defaults. */
type Stack = 'keyword' | 'vector' | 'hash';
const STACKS: readonly Stack[] = ['keyword', 'vector', 'hash'];
const dir = join(import.meta.dirname, 'fixtures', 'retrieval');
const fixtures = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Fixture);

/** Payloads of a fixture project, and the fixture id of every node key. */
function build(project: string, nodes: readonly FixtureNode[], fillers: number) {
  const texts = new Map<string, string>();
  const levels = new Map<string, string>();
  const payloads: Payload[] = [];
  const symptoms: Record<string, string> = {};
  for (const node of nodes) {
    if (node.id && node.text) texts.set(node.id, node.text);
    const textOf = (id: string) => texts.get(id) ?? (() => { throw new Error(`${project}: unknown id ${id}`); })();
    switch (node.type) {
      case 'run':
        payloads.push(run(node.run!, node.level!, node.query ?? null));
        break;
      case 'evidence':
        payloads.push(evidence(node.run!, node.t!, node.text!, node.source));
        levels.set(node.id!, 'L0');
        break;
      case 'memory':
        payloads.push(memory(node.run!, node.level!, node.t!, node.text!, node.parents!.map(textOf), node.symptom));
        levels.set(node.id!, node.level!);
        if (node.symptom) symptoms[node.text!] = node.symptom;
        break;
      case 'reference':
        payloads.push(reference(node.source!, node.text!));
        levels.set(node.id!, 'R');
        break;
      case 'tombstone':
        payloads.push(tombstone(textOf(node.target!)));
        break;
    }
  }
  for (let i = 0; i < fillers; i += 1) payloads.push(run(`filler-${i}`, 'L1', `filler-${i}`), ...filler(`filler-${i}`, 1, 100 + i));
  const ids = new Map<string, string>();
  for (const [id, text] of texts) ids.set(`${project}/${levels.get(id)}/${sha(text)}`, `${project}/${id}`);
  return { payloads, ids, symptoms };
}

for (const fixture of fixtures) {
  describe(`retrieval regression: ${fixture.name}`, () => {
    let store: TestStore;
    const ids = new Map<string, string>();
    const symptoms: Record<string, string> = {};
    const projects = Object.keys(fixture.projects);

    beforeAll(async () => {
      const built = Object.fromEntries(projects.map((p) => [p, build(p, fixture.projects[p]!, fixture.filler ?? 0)]));
      store = await testStore(Object.fromEntries(projects.map((p) => [p, built[p]!.payloads])));
      for (const b of Object.values(built)) {
        for (const [k, v] of b.ids) ids.set(k, v);
        Object.assign(symptoms, b.symptoms);
      }
    });
    afterAll(() => store.cleanup());

    for (const c of fixture.cases) {
      for (const stack of c.stacks ?? STACKS) {
        it(`[${stack}] ${c.name}`, async () => {
          const deps: QueryDeps = { items: store.items };
          if (stack === 'vector') {
            deps.vectors = await fakeVectorRecall(store.items, projects, symptoms);
            deps.embedder = fakeEmbedder();
            deps.floor = { minSimilarity: FAKE_MIN_SIMILARITY };
          }
          if (stack === 'hash') {
            deps.embedder = hashEmbedder(768);
            deps.vectors = await fakeVectorRecall(store.items, projects, symptoms, deps.embedder);
          }
          const result = await queryMemory({ text: c.query, ...(c.projects ? { projects: c.projects } : {}), ...(c.levels ? { levels: c.levels } : {}), ...(c.limit ? { limit: c.limit } : {}) }, deps);
          const qualified = (id: string) => (id.includes('/') ? id : `${c.projects?.[0] ?? projects[0]}/${id}`);
          const got = result.results.map((r) => ids.get(`${r.project}/${r.level}/${r.sha256}`) ?? `${r.project}/?${r.sha256.slice(0, 8)}`);
          const context = `${c.query} → ${JSON.stringify(got)}`;

          if (c.abstain !== undefined) expect({ abstained: result.abstained, reason: result.reason }, context).toEqual(c.abstain ? { abstained: true, reason: 'insufficient recall' } : { abstained: false, reason: undefined });
          if (c.abstain) expect(result.results, context).toEqual([]);
          const expected = (c.expected ?? []).map(qualified);
          expect(got.filter((id) => expected.includes(id)), `in order: ${context}`).toEqual(expected);
          if (c.first) expect(got[0], context).toBe(expected[0]);
          for (const id of (c.includes ?? []).map(qualified)) expect(got, context).toContain(id);
          for (const id of (c.forbidden ?? []).map(qualified)) expect(got, `forbidden ${id}: ${context}`).not.toContain(id);
          for (const [id, cited] of Object.entries(c.cites ?? {})) {
            const hit = result.results[got.indexOf(qualified(id))];
            expect(hit, context).toBeDefined();
            const project = hit!.project;
            expect(hit!.parents.map((p) => ids.get(`${project}/${p.level}/${p.sha256}`)), `citations of ${id}`).toEqual(cited.map((x) => `${project}/${x}`));
          }
          assertInvariants(result);
        });
      }
    }
  });
}

/** What holds for every answer: a total order that explains itself, and no R parents. */
function assertInvariants(result: QueryResult): void {
  if (result.abstained) return;
  expect(result.results.some((r) => r.ranking.floor_passed_by.length > 0)).toBe(true);
  for (const r of result.results) {
    if (r.level === 'R') expect(r.parents).toEqual([]);
    expect(r.parents.every((p) => p.level !== 'R')).toBe(true);
    expect(r.tier).toBe(r.level === 'R' ? 'reference' : r.level === 'L0' ? 'evidence' : 'memory');
  }
}
