import { describe, expect, it } from 'vitest';
import { FIXTURES, readTree, sampleEvents } from '../test/support.js';
import { applyEvent, emptyFold, renderIndexNote, renderProjectNotes, renderQueryNote, type VaultFold } from './index.js';

async function foldSample(emitEvidenceNotes: boolean): Promise<{ fold: VaultFold; evidence: Map<string, string> }> {
  const fold = emptyFold('poimen');
  const evidence = new Map<string, string>();
  for (const { event } of await sampleEvents()) {
    const effect = applyEvent(fold, event, { emitEvidenceNotes });
    if (effect.evidenceNote) evidence.set(effect.evidenceNote.path, effect.evidenceNote.content);
  }
  return { fold, evidence };
}

describe('rendering the sample extraction runs', () => {
  it('renders the L1 note and the index exactly as the fixture (seed 001 form)', async () => {
    const expected = await readTree(`${FIXTURES}/sample-vault`);
    const { fold, evidence } = await foldSample(false);
    expect(renderQueryNote(fold, 'infra-root-causes', { emitEvidenceNotes: false })).toBe(expected.get('poimen/infra-root-causes.md'));
    expect(renderIndexNote(fold)).toBe(expected.get('poimen/index.md'));
    expect(evidence.size).toBe(0);
    expect(renderProjectNotes(fold, { emitEvidenceNotes: false })).toEqual(expected);
  });

  it('with evidence notes, links each provenance line to an evidence note that is written', async () => {
    const expected = await readTree(`${FIXTURES}/sample-vault-evidence`);
    const { fold, evidence } = await foldSample(true);
    const rendered = new Map([...renderProjectNotes(fold, { emitEvidenceNotes: true }), ...evidence]);
    expect(new Map([...rendered].sort(([a], [b]) => (a < b ? -1 : 1)))).toEqual(expected);
    const note = rendered.get('poimen/infra-root-causes.md') ?? '';
    for (const [, target] of note.matchAll(/\[\[([^|\]]+)\|/g)) expect(rendered.has(`${target}.md`)).toBe(true);
  });

  it('counts chunks from gates and dates notes from event ts', async () => {
    const { fold } = await foldSample(false);
    expect(fold.queries.get('infra-root-causes')).toMatchObject({ chunks_seen: 5, chunks_used: 2, updated: '2026-08-17' });
    expect(fold.index).toMatchObject({ chunks_seen: 1, chunks_used: 1, updated: '2026-08-17' });
  });

  it('writes LF only and exactly one trailing newline', async () => {
    const { fold } = await foldSample(false);
    for (const content of renderProjectNotes(fold, { emitEvidenceNotes: false }).values()) {
      expect(content).not.toContain('\r');
      expect(content.endsWith('\n')).toBe(true);
      expect(content.endsWith('\n\n')).toBe(false);
    }
  });
});
