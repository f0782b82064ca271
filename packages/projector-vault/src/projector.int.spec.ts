import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { projectStretch } from '@mem/engine';
import { join } from 'node:path';
import { hasErrorCode } from '@mem/core';
import { afterAll, describe, expect, it } from 'vitest';
import { chainEvents } from '../../../test/support/events.js';
import { evidence, l1Run, memory, sha, tombstone } from '../test/payloads.js';
import {
  FIXTURES,
  applyBatches,
  readTree,
  removeTempTargets,
  sampleEvents,
  tempTarget,
} from '../test/support.js';
import { projectorVault, readVaultNotes } from './index.js';

async function refusal(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a refusal');
}

afterAll(removeTempTargets);

describe('projectorVault', () => {
  it('projects the sample log into the expected vault, in one batch or event by event', async () => {
    const events = await sampleEvents();
    const expected = await readTree(join(FIXTURES, 'sample-vault'));
    const once = await tempTarget();
    await applyBatches(once, 'poimen', [events]);
    expect(await readTree(once.vaultDir)).toEqual(expected);
    const stepwise = await tempTarget();
    await applyBatches(
      stepwise,
      'poimen',
      events.map((e) => [e]),
    );
    expect(await readTree(stepwise.vaultDir)).toEqual(expected);
    expect(await readTree(stepwise.stateDir)).toEqual(await readTree(once.stateDir));
  });

  it('writes and links evidence notes with emitEvidenceNotes', async () => {
    const target = await tempTarget({ emitEvidenceNotes: true });
    await applyBatches(target, 'poimen', [await sampleEvents()]);
    expect(await readTree(target.vaultDir)).toEqual(
      await readTree(join(FIXTURES, 'sample-vault-evidence')),
    );
  });

  it('reports its position and lists its outputs, sorted', async () => {
    const events = await sampleEvents();
    const target = await tempTarget({ emitEvidenceNotes: true });
    const handle = await projectorVault.init(target);
    expect(await projectorVault.position(handle, 'poimen')).toBeNull();
    await projectStretch(projectorVault, handle, 'poimen', events);
    expect(await projectorVault.position(handle, 'poimen')).toEqual({
      seq: events.length,
      head: events.at(-1)?.hash,
    });
    await projectorVault.seal(handle);
    await projectorVault.close(handle);
    const outputs = await projectorVault.outputs(target);
    expect(outputs.map((o) => o.path)).toEqual([
      'vault/poimen/evidence/claude-0b7f4f9e-session-chunk2-56f6bc4f.md',
      'vault/poimen/evidence/pi-2026-07-21t16-23-59-019f857d-chunk4-94af7d39.md',
      'vault/poimen/index.md',
      'vault/poimen/infra-root-causes.md',
      'vault/poimen/sources/claude-0b7f4f9e-session.md',
      'vault/poimen/sources/pi-2026-07-21t16-23-59-019f857d.md',
    ]);
    for (const output of outputs) expect(output.absolutePath).toBe(join(target.root, output.path));
  });

  it('refuses a batch applied twice, a gap, a foreign chain and an unknown type, changing nothing', async () => {
    const events = await sampleEvents();
    const target = await tempTarget();
    const handle = await projectorVault.init(target);
    await projectStretch(projectorVault, handle, 'poimen', events.slice(0, 5));
    expect(
      hasErrorCode(
        await refusal(projectStretch(projectorVault, handle, 'poimen', events.slice(0, 5))),
        'PROJECTION_FAILED',
      ),
    ).toBe(true);
    expect(
      hasErrorCode(
        await refusal(projectStretch(projectorVault, handle, 'poimen', events.slice(6))),
        'PROJECTION_FAILED',
      ),
    ).toBe(true);
    const foreign = chainEvents('poimen', [l1Run('x', 'q')], { startSeq: 6, prev: 'f'.repeat(64) });
    expect(
      hasErrorCode(
        await refusal(projectStretch(projectorVault, handle, 'poimen', foreign)),
        'PROJECTION_FAILED',
      ),
    ).toBe(true);
    const other = chainEvents('other', [l1Run('x', 'q')]);
    expect(
      hasErrorCode(
        await refusal(projectStretch(projectorVault, handle, 'poimen', other)),
        'PROJECTION_FAILED',
      ),
    ).toBe(true);
    const next = events[5];
    const bogus = { event: { ...next?.event, type: 'mystery' }, hash: next?.hash } as never;
    expect(
      hasErrorCode(
        await refusal(projectStretch(projectorVault, handle, 'poimen', [bogus])),
        'UNKNOWN_EVENT_TYPE',
      ),
    ).toBe(true);
    expect((await projectorVault.position(handle, 'poimen'))?.seq).toBe(5);
    await projectStretch(projectorVault, handle, 'poimen', events.slice(5));
    await projectorVault.seal(handle);
    expect(await readTree(target.vaultDir)).toEqual(await readTree(join(FIXTURES, 'sample-vault')));
    const again = await projectorVault.init(target);
    expect(
      hasErrorCode(
        await refusal(projectStretch(projectorVault, again, 'poimen', events.slice(-1))),
        'PROJECTION_FAILED',
      ),
    ).toBe(true);
  });

  it('converges after a crash between writing notes and writing its state', async () => {
    const events = await sampleEvents();
    const target = await tempTarget({ emitEvidenceNotes: true });
    await applyBatches(target, 'poimen', [events.slice(0, 8)]);
    const statePath = join(target.stateDir, 'vault', 'poimen.json');
    const oldState = await readFile(statePath, 'utf8');
    await applyBatches(target, 'poimen', [events.slice(8)]);
    await writeFile(statePath, oldState); // the notes are new, the state is not
    await applyBatches(target, 'poimen', [events.slice(8)]);
    expect(await readTree(target.vaultDir)).toEqual(
      await readTree(join(FIXTURES, 'sample-vault-evidence')),
    );
  });

  it('removes the evidence note of evidence tombstoned in a later batch, and its empty folder', async () => {
    const text = 'A secret in the transcript.';
    const events = chainEvents('demo', [
      l1Run('r1', 'q'),
      evidence('r1', 1, 'pi:s', text),
      memory('r1', 1, 'm', [sha(text)]),
      tombstone(sha(text), 'secret'),
    ]);
    const target = await tempTarget({ emitEvidenceNotes: true });
    await applyBatches(target, 'demo', [events.slice(0, 3)]);
    expect([...(await readTree(target.vaultDir)).keys()]).toContain(
      `demo/evidence/pi-s-chunk1-${sha(text).slice(0, 8)}.md`,
    );
    await applyBatches(target, 'demo', [events.slice(3)]);
    expect([...(await readTree(target.vaultDir)).keys()]).toEqual(['demo/index.md', 'demo/q.md']);
    expect((await projectorVault.outputs(target)).map((o) => o.path)).toEqual([
      'vault/demo/index.md',
      'vault/demo/q.md',
    ]);
  });

  it('rebuilds when emitEvidenceNotes changes, and keeps the stored choice when it is not given', async () => {
    const events = await sampleEvents();
    const target = await tempTarget({ emitEvidenceNotes: true });
    await applyBatches(target, 'poimen', [events]);
    const keep = await projectorVault.init({ ...target, options: {} });
    expect((await projectorVault.position(keep, 'poimen'))?.seq).toBe(events.length);
    const off = await projectorVault.init({ ...target, options: { emitEvidenceNotes: false } });
    expect(await projectorVault.position(off, 'poimen')).toBeNull();
    expect(await readTree(target.vaultDir)).toEqual(new Map());
    await projectStretch(projectorVault, off, 'poimen', events);
    await projectorVault.seal(off);
    expect(await readTree(target.vaultDir)).toEqual(await readTree(join(FIXTURES, 'sample-vault')));
  });

  it('resets a state from another projector version or one it cannot read', async () => {
    const target = await tempTarget();
    await applyBatches(target, 'poimen', [await sampleEvents()]);
    const statePath = join(target.stateDir, 'vault', 'poimen.json');
    const state = JSON.parse(await readFile(statePath, 'utf8')) as { version: number };
    await writeFile(statePath, JSON.stringify({ ...state, version: 0 }));
    const stale = await projectorVault.init(target);
    expect(await projectorVault.position(stale, 'poimen')).toBeNull();
    expect(await readTree(target.vaultDir)).toEqual(new Map());
    await writeFile(statePath, '{not json');
    const broken = await projectorVault.init(target);
    expect(await projectorVault.position(broken, 'poimen')).toBeNull();
  });

  it('never deletes or overwrites a managed path it cannot read, and does not record the position', async () => {
    const events = await sampleEvents();
    const target = await tempTarget();
    await mkdir(join(target.vaultDir, 'poimen', 'infra-root-causes.md'), { recursive: true });
    const handle = await projectorVault.init(target);
    await projectStretch(projectorVault, handle, 'poimen', events);
    expect(hasErrorCode(await refusal(projectorVault.seal(handle)), 'IO_FAILED')).toBe(true);
    const others = [...(await readTree(join(FIXTURES, 'sample-vault')))].filter(
      ([path]) => path !== 'poimen/infra-root-causes.md',
    );
    expect(await readTree(target.vaultDir)).toEqual(new Map(others));
    expect(await projectorVault.outputs(target)).toEqual([]);
    await rm(join(target.vaultDir, 'poimen', 'infra-root-causes.md'), { recursive: true });
    await projectorVault.seal(handle);
    expect(await readTree(target.vaultDir)).toEqual(await readTree(join(FIXTURES, 'sample-vault')));
  });

  it('reset removes only its own notes: human notes, skills and .obsidian stay', async () => {
    const target = await tempTarget({ emitEvidenceNotes: true });
    const human = new Map([
      ['poimen/my-notes.md', '# mine\n'],
      ['poimen/evidence/hand-written.md', 'kept\n'],
      ['skills/_drafts/fix-kong/SKILL.md', '---\nname: fix-kong\n---\n'],
      ['.obsidian/app.json', '{}\n'],
    ]);
    for (const [path, content] of human) {
      await mkdir(join(target.vaultDir, path, '..'), { recursive: true });
      await writeFile(join(target.vaultDir, path), content);
    }
    await applyBatches(target, 'poimen', [await sampleEvents()]);
    expect((await readTree(target.vaultDir)).size).toBe(human.size + 6);
    await projectorVault.reset(target, 'poimen');
    expect(await readTree(target.vaultDir)).toEqual(human);
    expect(await projectorVault.outputs(target)).toEqual([]);
    await applyBatches(target, 'poimen', [await sampleEvents()]);
    await projectorVault.reset(target);
    expect(await readTree(target.vaultDir)).toEqual(human);
  });

  it('reads its notes back with gray-matter, skipping a human note', async () => {
    const target = await tempTarget({ emitEvidenceNotes: true });
    await applyBatches(target, 'poimen', [await sampleEvents()]);
    await writeFile(join(target.vaultDir, 'poimen', 'my-notes.md'), '---\ntags: [x]\n---\nmine\n');
    const { notes, refused } = await readVaultNotes(target.vaultDir, 'poimen');
    expect(refused).toEqual([]);
    expect(notes.map((n) => n.path)).toEqual([
      'poimen/evidence/claude-0b7f4f9e-session-chunk2-56f6bc4f.md',
      'poimen/evidence/pi-2026-07-21t16-23-59-019f857d-chunk4-94af7d39.md',
      'poimen/index.md',
      'poimen/infra-root-causes.md',
    ]);
    const l1 = notes.find((n) => n.path === 'poimen/infra-root-causes.md');
    expect(l1?.frontmatter).toEqual({
      project: 'poimen',
      level: 'L1',
      query_id: 'infra-root-causes',
      updated: '2026-08-17',
      chunks_seen: 5,
      chunks_used: 2,
    });
    expect(l1?.body.startsWith('# Infra root causes — poimen\n\n- Requests over 10KB')).toBe(true);
    expect(notes.find((n) => n.path === 'poimen/index.md')?.frontmatter['query_id']).toBeNull();
  });
});
