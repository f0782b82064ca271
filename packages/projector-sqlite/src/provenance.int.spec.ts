import { join } from 'node:path';
import { projectStretch } from '@mem/engine';
import { contentSha256, uniformLines } from '@mem/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chainEvents, projected, tempRoot } from '../test/support.js';
import { openItemStore, type ItemStore } from './item-store.js';
import { projectorSqlite } from './projector.js';

const P = 'demo';
const sha = (text: string) => contentSha256(text);
const run = (runId: string, level: 'L1' | 'L2', queryId: string | null) => ({
  type: 'run',
  run_id: runId,
  level,
  query_id: queryId,
  input_level: level === 'L1' ? 'chunk' : 'L1',
  model: 'heuristic',
  chunk_tokens: 5000,
  memory_budget: 1024,
  exit_gate: level === 'L2',
});
const evidence = (runId: string, t: number, text: string) => ({
  type: 'evidence',
  run_id: runId,
  level: 'L0',
  t,
  source: 'claude:s',
  text,
  sha256: sha(text),
});
const memory = (runId: string, level: 'L1' | 'L2', t: number, text: string, parents: string[]) => ({
  type: 'memory',
  run_id: runId,
  level,
  t,
  text,
  tokens: 5,
  parents,
  sha256: sha(text),
  lines: uniformLines(text, parents),
});
const reference = (text: string) => ({
  type: 'reference',
  level: 'R',
  source: 'docs:x.md',
  heading_path: [],
  text,
  sha256: sha(text),
});

describe('provenance and memory chains', () => {
  let root: ReturnType<typeof tempRoot>;
  let store: ItemStore | undefined;
  beforeEach(() => {
    root = tempRoot();
  });
  afterEach(() => {
    store?.close();
    root.cleanup();
  });

  async function apply(payloads: Record<string, unknown>[]): Promise<ItemStore> {
    const handle = await projectorSqlite.init(root.target);
    await projectStretch(projectorSqlite, handle, P, projected(chainEvents(P, payloads)));
    await projectorSqlite.seal(handle);
    await projectorSqlite.close(handle);
    store = openItemStore(join(root.target.stateDir, 'items.sqlite'));
    return store;
  }

  it('resolves a parent at the preferred level, else at the level it exists at, else leaves it dangling', async () => {
    const s = await apply([
      reference('doc passage'),
      run('r-1', 'L1', 'q'),
      evidence('r-1', 1, 'the evidence'),
      memory('r-1', 'L1', 1, 'memory one', [
        sha('the evidence'),
        sha('doc passage'),
        sha('nowhere'),
      ]),
    ]);
    const parents = s
      .edges(P, sha('memory one'), 'parents')
      .map((e) => [e.parent_sha, e.parent_level]);
    expect(parents).toEqual(
      [
        [sha('the evidence'), 'L0'],
        [sha('doc passage'), 'R'],
        [sha('nowhere'), 'L0'],
      ].sort(([a], [b]) => a!.localeCompare(b!)),
    );
  });

  it('prefers the L1 node when an L2 parent sha exists at L0 and L1', async () => {
    const s = await apply([
      run('r-1', 'L1', 'q'),
      evidence('r-1', 1, 'same words'),
      memory('r-1', 'L1', 1, 'same words', [sha('same words')]),
      run('r-2', 'L2', null),
      memory('r-2', 'L2', 1, 'synthesis', [sha('same words')]),
    ]);
    expect(s.edges(P, sha('synthesis'), 'parents').map((e) => e.parent_level)).toEqual(['L1']);
    expect(
      s.edges(P, sha('same words'), 'parents').map((e) => `${e.child_level}>${e.parent_level}`),
    ).toEqual(['L1>L0']);
  });

  it('chains memories per query across runs, and reinstates a memory whose text comes back', async () => {
    const e = sha('ev');
    const s = await apply([
      run('r-1', 'L1', 'q'),
      evidence('r-1', 1, 'ev'),
      memory('r-1', 'L1', 1, 'A', [e]),
      run('r-2', 'L1', 'other'),
      memory('r-2', 'L1', 1, 'X', [e]),
      run('r-3', 'L1', 'q'),
      memory('r-3', 'L1', 1, 'B', [e]),
      memory('r-3', 'L1', 2, 'A', [e]),
    ]);
    const chain = Object.fromEntries(
      s
        .nodes({ project: P, levels: ['L1'], includeSuperseded: true })
        .map((n) => [n.text, n.superseded_by]),
    );
    expect(chain).toEqual({ A: null, B: sha('A'), X: null });
    expect(s.nodes({ project: P, levels: ['L1'] }).map((n) => n.text)).toEqual(['A', 'X']);
  });
});
