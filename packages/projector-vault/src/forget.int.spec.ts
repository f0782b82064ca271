import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { contentSha256, type Payload } from '@mem/core';
import { afterAll, describe, expect, it } from 'vitest';
import { chainEvents } from '../../../test/support/events.js';
import { evidence, l1Run, l2Run, memoryOfLines, sha } from '../test/payloads.js';
import { applyBatches, readTree, removeTempTargets, tempTarget } from '../test/support.js';
import { statePath } from './state-store.js';

const E1 = 'Kong buffered request bodies over 10KB.';
const E2 = 'The pg container raced its volume mount.';
const KONG = 'Kong body buffering.';
const PG = 'pg startup race.';
const NEW_KONG = 'Kong buffers request bodies over 10KB before proxying.';
const L1 = memoryOfLines('r1', 4, [
  [KONG, [sha(E1)]],
  [PG, [sha(E2)]],
]);
const L1_SHA = (L1 as { sha256: string }).sha256;
// The synthesis repeats both lines: a forgotten line leaves the index too.
const L2 = memoryOfLines(
  'r2',
  1,
  [
    [KONG, [L1_SHA]],
    [PG, [L1_SHA]],
  ],
  'L2',
);
const BASE: Payload[] = [
  l1Run('r1', 'infra'),
  evidence('r1', 2, 'claude:s', E1),
  evidence('r1', 4, 'pi:s', E2),
  L1,
  l2Run('r2'),
  L2,
];

function forgotten(target: string, kind: 'line' | 'memory', lines: string[]): Payload {
  return {
    type: 'forgotten',
    target,
    target_kind: kind,
    before_sha256: target,
    refuses: lines.map((line) => ({ sha256: contentSha256(line), terms: [] })),
    reason: 'wrong',
  };
}

function superseded(line: string, text: string): Payload {
  return {
    type: 'superseded',
    target: contentSha256(line),
    target_kind: 'line',
    before_sha256: contentSha256(line),
    after_sha256: contentSha256(text),
    text,
    reason: 'reworded',
  };
}

/** The vault of `payloads`, projected in one batch and event by event: both must be the same bytes. */
async function project(payloads: Payload[]): Promise<string> {
  return (await projectBoth(payloads)).vaultDir;
}

async function projectBoth(payloads: Payload[]): Promise<{ vaultDir: string; stateDir: string }> {
  const events = chainEvents('demo', payloads, { startTs: '2026-08-17T09:00:00.000Z' });
  const once = await tempTarget();
  await applyBatches(once, 'demo', [events]);
  const stepwise = await tempTarget();
  await applyBatches(
    stepwise,
    'demo',
    events.map((e) => [e]),
  );
  expect(await readTree(stepwise.vaultDir)).toEqual(await readTree(once.vaultDir));
  return once;
}

const note = (vault: string, path: string): Promise<string> =>
  readFile(join(vault, 'demo', path), 'utf8');

afterAll(removeTempTargets);

describe('vault projector: forgotten and superseded lines', () => {
  it('leaves a forgotten line out of its note, the index, and the source note that cited only it', async () => {
    const vault = await project([...BASE, forgotten(contentSha256(PG), 'line', [PG])]);
    const infra = await note(vault, 'infra.md');
    expect(infra).toContain(KONG);
    expect(infra).not.toContain(PG);
    expect(infra).not.toContain(`^${contentSha256(PG).slice(0, 8)}`);
    const index = await note(vault, 'index.md');
    expect(index).toContain(KONG);
    expect(index).not.toContain(PG);
    expect((await readdir(join(vault, 'demo', 'sources'))).sort()).toEqual(['claude-s.md']);
  });

  it('leaves a forgotten whole memory with no lines, saying why', async () => {
    const vault = await project([...BASE, forgotten(L1_SHA, 'memory', [KONG, PG])]);
    const infra = await note(vault, 'infra.md');
    expect(infra).toContain('Memory forgotten: wrong');
    expect(infra).not.toContain(KONG);
    expect(infra).not.toContain(PG);
    expect(await note(vault, 'index.md')).not.toContain(KONG);
    expect(await readdir(join(vault, 'demo'))).not.toContain('sources');
  });

  it('renders a superseded line as its successor under the same block id, following a chain', async () => {
    const NEWEST = 'Kong buffers bodies over 10KB (proxy_request_buffering on).';
    const vault = await project([
      ...BASE,
      superseded(KONG, NEW_KONG),
      superseded(NEW_KONG, NEWEST),
    ]);
    const infra = await note(vault, 'infra.md');
    expect(infra).toContain(`- ${NEWEST} ^${contentSha256(KONG).slice(0, 8)}\n`);
    expect(infra).not.toContain(KONG);
    expect(infra).not.toContain(NEW_KONG);
    expect(infra).toContain(PG);
    expect(await note(vault, 'index.md')).toContain(NEWEST);
  });

  it('drops a superseded line whose successor was forgotten', async () => {
    const vault = await project([
      ...BASE,
      superseded(KONG, NEW_KONG),
      forgotten(contentSha256(NEW_KONG), 'line', [NEW_KONG]),
    ]);
    const infra = await note(vault, 'infra.md');
    expect(infra).not.toContain(NEW_KONG);
    expect(infra).not.toContain(KONG);
    expect(infra).toContain(PG);
  });

  it('keeps the replacement of a superseded line that is then forgotten, under the old block id', async () => {
    // The forget names the old words only: the replacement stays a live line (the item store and
    // pgvector keep it, and recall points at this note for it).
    const { vaultDir, stateDir } = await projectBoth([
      ...BASE,
      superseded(KONG, NEW_KONG),
      forgotten(contentSha256(KONG), 'line', [KONG]),
    ]);
    const infra = await note(vaultDir, 'infra.md');
    expect(infra).toContain(`- ${NEW_KONG} ^${contentSha256(KONG).slice(0, 8)}\n`);
    expect(infra).not.toContain(KONG);
    expect(infra).toContain(PG);
    // The L1 line still cites its chunk, so the source note keeps listing it.
    expect((await readdir(join(vaultDir, 'demo', 'sources'))).sort()).toEqual([
      'claude-s.md',
      'pi-s.md',
    ]);
    // The state file keeps no copy of the forgotten words, only of the replacement.
    const state = await readFile(statePath(stateDir, 'demo'), 'utf8');
    expect(state).not.toContain(KONG);
    expect(state).toContain(NEW_KONG);
  });
});
