import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashEmbedder } from '@mem/embed';
import { queryMemory, type QueryDeps, type QueryResult, type RecallLevel } from '@mem/query';
import {
  FAKE_MIN_SIMILARITY,
  fakeEmbedder,
  fakeVectorRecall,
} from '../packages/query/test/fake-vectors.js';
import { splitMemoryLines } from '@mem/core';
import {
  evidence,
  filler,
  linedMemory,
  memory,
  reference,
  run,
  sha,
  testStore,
  tombstone,
  type Payload,
  type TestStore,
} from '../packages/query/test/store.js';

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
  /** Per line of `text`, the evidence ids it rests on (default: every line rests on `parents`). */
  line_parents?: string[][];
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
    const textOf = (id: string) =>
      texts.get(id) ??
      (() => {
        throw new Error(`${project}: unknown id ${id}`);
      })();
    switch (node.type) {
      case 'run':
        payloads.push(run(node.run!, node.level!, node.query ?? null));
        break;
      case 'evidence':
        payloads.push(evidence(node.run!, node.t!, node.text!, node.source));
        levels.set(node.id!, 'L0');
        break;
      case 'memory':
        if (node.line_parents) {
          const lines = splitMemoryLines(node.text!);
          payloads.push(
            linedMemory(
              node.run!,
              node.level!,
              node.t!,
              lines.map((line, i) => [line, node.line_parents![i]!.map(textOf)] as const),
            ),
          );
        } else
          payloads.push(
            memory(
              node.run!,
              node.level!,
              node.t!,
              node.text!,
              node.parents!.map(textOf),
              node.symptom,
            ),
          );
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
  for (let i = 0; i < fillers; i += 1)
    payloads.push(run(`filler-${i}`, 'L1', `filler-${i}`), ...filler(`filler-${i}`, 1, 100 + i));
  const ids = new Map<string, string>();
  for (const [id, text] of texts)
    ids.set(`${project}/${levels.get(id)}/${sha(text)}`, `${project}/${id}`);
  return { payloads, ids, symptoms };
}

for (const fixture of fixtures) {
  describe(`retrieval regression: ${fixture.name}`, () => {
    let store: TestStore;
    const ids = new Map<string, string>();
    const symptoms: Record<string, string> = {};
    const projects = Object.keys(fixture.projects);

    beforeAll(async () => {
      const built = Object.fromEntries(
        projects.map((p) => [p, build(p, fixture.projects[p]!, fixture.filler ?? 0)]),
      );
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
          const result = await queryMemory(
            {
              text: c.query,
              ...(c.projects ? { projects: c.projects } : {}),
              ...(c.levels ? { levels: c.levels } : {}),
              ...(c.limit ? { limit: c.limit } : {}),
              // As `mem query` asks: duplicates folded into the best-ranked (issue 13 §5).
              fold: true,
            },
            deps,
          );
          const qualified = (id: string) =>
            id.includes('/') ? id : `${c.projects?.[0] ?? projects[0]}/${id}`;
          // An L1/L2 answer is a line (issue 11 §3): `<memory id>#<n>`, the n-th line of the note it belongs to.
          const got = result.results.map((r) => idOf(r, ids, store));
          const context = `${c.query} → ${JSON.stringify(got)}`;

          if (c.abstain !== undefined)
            expect({ abstained: result.abstained, reason: result.reason }, context).toEqual(
              c.abstain
                ? { abstained: true, reason: 'insufficient recall' }
                : { abstained: false, reason: undefined },
            );
          if (c.abstain) expect(result.results, context).toEqual([]);
          const expected = (c.expected ?? []).map(qualified);
          const at = (want: string) => got.findIndex((id) => answers(id, want));
          const positions = expected.map(at);
          expect(
            positions.every((p, i) => p >= 0 && (i === 0 || p > positions[i - 1]!)),
            `in order ${JSON.stringify(expected)}: ${context}`,
          ).toBe(true);
          if (c.first) expect(answers(got[0] ?? '', expected[0]!), context).toBe(true);
          for (const id of (c.includes ?? []).map(qualified))
            expect(at(id), `includes ${id}: ${context}`).toBeGreaterThanOrEqual(0);
          for (const id of (c.forbidden ?? []).map(qualified))
            expect(at(id), `forbidden ${id}: ${context}`).toBe(-1);
          for (const [id, cited] of Object.entries(c.cites ?? {})) {
            const hit = result.results[at(qualified(id))];
            expect(hit, context).toBeDefined();
            const project = hit!.project;
            expect(
              hit!.parents.map((p) => ids.get(`${project}/${p.level}/${p.sha256}`)),
              `citations of ${id}`,
            ).toEqual(cited.map((x) => `${project}/${x}`));
          }
          assertInvariants(result);
        });
      }
    }
  });
}

/**
 * Whether the answer `got` is what a fixture id names: that node, or, for a memory id without
 * `#n`, any line of that memory (a memory's answer is one of its lines).
 */
function answers(got: string, want: string): boolean {
  return got === want || (!want.includes('#') && got.startsWith(`${want}#`));
}

/** The fixture id of a result: a node's own id, or `<memory id>#<n>` for a line of the memory its note names. */
function idOf(
  r: QueryResult['results'][number],
  ids: ReadonlyMap<string, string>,
  store: TestStore,
): string {
  const unknown = `${r.project}/?${r.sha256.slice(0, 8)}`;
  if (!r.note) return ids.get(`${r.project}/${r.level}/${r.sha256}`) ?? unknown;
  const memory = ids.get(`${r.project}/${r.note.level}/${r.note.sha256}`);
  const text = store.items.node(r.project, r.note.sha256, r.note.level, 'memory')?.text;
  if (!memory || text === undefined) return unknown;
  return `${memory}#${splitMemoryLines(text).findIndex((line) => sha(line) === r.sha256) + 1}`;
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
