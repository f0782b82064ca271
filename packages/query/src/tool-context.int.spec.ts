import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logSignatures } from '@mem/core';
import type { ItemStore } from '@mem/projector-sqlite';
import { evidence, memory, reference, run, sha, testStore, type TestStore } from '../test/store.js';
import { assembleContext, type ContextRequest, type RecallEntry } from './tool-context.js';

// An npm failure as one session's tool result printed it, and as another session's CI log does.
const SEEN_LOG =
  'npm ERR! code ERESOLVE\nnpm ERR! ERESOLVE unable to resolve dependency tree\nnpm ERR! Found: react@18.2.0';
const CI_LOG = [
  '2026-09-02T10:00:01.123Z ##[group]Run npm ci',
  'npm ERR! code ERESOLVE',
  'npm ERR! ERESOLVE unable to resolve dependency tree',
  'npm ERR! A complete log of this run can be found in: /home/runner/.npm/_logs/2026-09-02T10_00_01_123Z-debug-0.log',
  '##[error]Process completed with exit code 1.',
].join('\n');
const E_NPM = `npm ci failed:\n${SEEN_LOG}\nThe fix was npm ci --legacy-peer-deps.`;
const M_NPM =
  '- npm ci failed with ERESOLVE on react 18; the working form is npm ci --legacy-peer-deps.';
const E_KUBE =
  'kubectl get pods --all failed: unknown flag: --all. kubectl get pods --all-namespaces worked.';
const M_KUBE =
  '- kubectl get pods --all is not a flag; the working form is kubectl get pods --all-namespaces.';
const E_OTHER = 'kubectl logs needed the pod namespace in the other project as well.';
const M_OTHER = '- kubectl logs needs -n with the pod namespace, or it looks in default.';
const R_KUBE =
  'kubectl get pods: list pods. Use --all-namespaces (-A) to list pods in every namespace. kubectl cheatsheet.';

/** The npm memory with its line carrying the signatures of the failure it was drawn from. */
function signedMemory(): Record<string, unknown> {
  const payload = memory('r-npm', 'L1', 1, M_NPM, [E_NPM]);
  const signatures = logSignatures(SEEN_LOG).map((s) => ({
    sig_sha: s.sigSha,
    signature: s.signature,
    tool: 'bash',
  }));
  const lines = payload['lines'] as { sha256: string; parents: string[] }[];
  return { ...payload, lines: lines.map((l) => ({ ...l, signatures })) };
}

let store: TestStore;
beforeAll(async () => {
  store = await testStore({
    demo: [
      run('r-npm', 'L1', 'tool-failures'),
      evidence('r-npm', 1, E_NPM),
      signedMemory(),
      run('r-kube', 'L1', 'tool-failures'),
      evidence('r-kube', 1, E_KUBE),
      memory('r-kube', 'L1', 1, M_KUBE, [E_KUBE]),
      reference('docs:kubectl.md#get-pods', R_KUBE),
    ],
    other: [
      run('r-other', 'L1', 'tool-failures'),
      evidence('r-other', 1, E_OTHER),
      memory('r-other', 'L1', 1, M_OTHER, [E_OTHER]),
    ],
  });
}, 120_000);
afterAll(() => store.cleanup());

const ask = (request: Partial<ContextRequest>, items: ItemStore = store.items) =>
  assembleContext(
    { budget: 4096, project: 'demo', reachable: ['demo', 'other'], ...request },
    {
      items,
      skills: async () => [
        { name: 'kubectl', description: 'kubectl usage in this cluster', when_to_use: null },
        { name: 'sourdough', description: 'bread', when_to_use: null },
      ],
    },
  );

describe('assembleContext: three tiers and skills under a budget', () => {
  it('finds a failure seen once by the raw log of the same failure from another run, at tier 1 with its citation', async () => {
    const bundle = await ask({ signatureSource: CI_LOG });
    const first = bundle.results[0]!;
    expect(first.tier).toBe(1);
    expect(first.tier === 1 && first.line.sha256).toBe(
      sha(
        'npm ci failed with ERESOLVE on react 18; the working form is npm ci --legacy-peer-deps.',
      ),
    );
    expect(first.tier === 1 && first.citations.map((c) => c.sha256)).toContain(sha(E_NPM));
    // The same line is not offered again at tier 2.
    expect(
      bundle.results.filter(
        (r) => r.tier === 2 && r.sha256 === (first.tier === 1 ? first.line.sha256 : ''),
      ),
    ).toEqual([]);
    expect(bundle.notes).toEqual([]);
  });

  it('puts what was learned (tier 2) above the docs (tier 3), marks each, and matches the tool’s skill', async () => {
    const bundle = await ask({ tool: 'kubectl', task: 'list the pods in every namespace' });
    const tiers = bundle.results.map((r) => r.tier);
    expect(tiers).toContain(2);
    expect(tiers).toContain(3);
    expect(tiers.indexOf(3)).toBeGreaterThan(tiers.lastIndexOf(2));
    expect(bundle.results.find((r) => r.tier === 3)!).toMatchObject({ level: 'R' });
    expect(bundle.skills.map((s) => s.name)).toEqual(['kubectl']);
  });

  it('federates the tool leg with the caller’s project first; a task alone stays in the project', async () => {
    const federated = (await ask({ tool: 'kubectl' })).results.filter(
      (r): r is RecallEntry => r.tier === 2,
    );
    expect(federated.map((r) => r.project)).toEqual(['demo', 'other']);
    expect(federated[0]!.project_match).toBe(true);
    // Asked from the other project, the same rows come in the other order: a boost, not a filter.
    const fromOther = (await ask({ tool: 'kubectl', project: 'other' })).results.filter(
      (r): r is RecallEntry => r.tier === 2,
    );
    expect(fromOther.map((r) => r.project)).toEqual(['other', 'demo']);
    const scoped = (await ask({ task: 'kubectl pods namespace' })).results.filter(
      (r) => r.tier !== 1,
    );
    expect(new Set(scoped.map((r) => r.project))).toEqual(new Set(['demo']));
  });

  it('drops R first when the budget is too small for it, counting with the real tokenizer', async () => {
    const full = await ask({ tool: 'kubectl', task: 'list the pods in every namespace' });
    const r = full.results.find((x) => x.tier === 3)!;
    const bundle = await ask({
      tool: 'kubectl',
      task: 'list the pods in every namespace',
      budget: full.budget.used - 1,
    });
    expect(bundle.budget.dropped).toEqual([{ part: 'reference', count: 1, tokens: r.tokens }]);
    expect(bundle.results.map((x) => x.tier)).toEqual(
      full.results.filter((x) => x.tier !== 3).map((x) => x.tier),
    );
    expect(bundle.skills).toHaveLength(1);
    expect(bundle.budget.used).toBeLessThanOrEqual(bundle.budget.limit);
  });

  it('a leg that throws leaves its part empty with a note; the other legs still answer', async () => {
    const broken = new Proxy(store.items, {
      get(target, key, receiver) {
        if (key === 'failureSignatures')
          return () => {
            throw new Error('failure_signature table unreadable');
          };
        const value = Reflect.get(target, key, receiver) as unknown;
        return typeof value === 'function'
          ? (value as (...a: unknown[]) => unknown).bind(target)
          : value;
      },
    });
    const bundle = await assembleContext(
      {
        budget: 4096,
        project: 'demo',
        reachable: ['demo', 'other'],
        tool: 'kubectl',
        signatureSource: CI_LOG,
      },
      {
        items: broken,
        skills: () => Promise.reject(new Error('skills timed out')),
      },
    );
    expect(bundle.notes.map((n) => n.leg).sort()).toEqual(['signature', 'skills']);
    expect(bundle.results.filter((r) => r.tier === 1)).toEqual([]);
    expect(bundle.results.some((r) => r.tier === 2)).toBe(true);
    expect(bundle.skills).toEqual([]);
  });

  it('runs no reference leg (no R posting read) for a project without reference passages', async () => {
    const rLevels: string[] = [];
    const counting = new Proxy(store.items, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver) as unknown;
        if (typeof value !== 'function') return value;
        const bound = (value as (...a: unknown[]) => unknown).bind(target);
        if (key !== 'tokenPostings') return bound;
        return (token: string, set: { levels: readonly string[] }) => {
          if (set.levels.includes('R')) rLevels.push(token);
          return bound(token, set);
        };
      },
    });
    const bundle = await assembleContext(
      {
        budget: 4096,
        project: 'other',
        reachable: ['demo', 'other'],
        tool: 'kubectl',
        task: 'list pods',
      },
      { items: counting },
    );
    expect(rLevels).toEqual([]);
    expect(bundle.results.some((r) => r.tier === 3)).toBe(false);
    expect(bundle.results.some((r) => r.tier === 2)).toBe(true);
  });
});

describe('assembleContext: each text tokenised once per process', () => {
  it('asks the tokenizer nothing for a request whose every text it already counted', async () => {
    const counted: string[] = [];
    const spy = {
      name: 'spy',
      count: (text: string) => (counted.push(text), text.length),
    };
    const request: ContextRequest = {
      budget: 4096,
      project: 'demo',
      reachable: ['demo', 'other'],
      tool: 'kubectl',
      task: 'list the pods in every namespace',
      signatureSource: CI_LOG,
    };
    const deps = { items: store.items, tokenizer: spy };
    const first = await assembleContext(request, deps);
    expect(first.results.map((r) => r.tier)).toEqual(expect.arrayContaining([1, 2, 3]));
    // Every distinct text once, however many entries repeat it (a citation shared by two lines).
    expect(new Set(counted).size).toBe(counted.length);
    counted.length = 0;
    const again = await assembleContext(request, deps);
    expect(counted).toEqual([]);
    expect(again.budget).toEqual(first.budget);
    expect(again.results.map((r) => r.tokens)).toEqual(first.results.map((r) => r.tokens));
  });
});
