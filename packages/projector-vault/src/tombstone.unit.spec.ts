import { describe, expect, it } from 'vitest';
import { chainEvents } from '../../../test/support/events.js';
import { chunk, evidence, gate, l1Run, l2Run, memory, sha, tombstone } from '../test/payloads.js';
import {
  applyEvent,
  emptyFold,
  renderIndexNote,
  renderProjectNotes,
  renderQueryNote,
  type FoldEffect,
  type VaultFold,
} from './index.js';

const E1 = 'Kong buffered request bodies over 10KB.';
const E2 = 'The pg container raced its volume mount.';
const M1 = '- Kong body buffering.';
const M2 = '- Kong body buffering.\n- pg startup race.';
const BASE = [
  l1Run('r1', 'infra'),
  evidence('r1', 2, 'claude:s', E1),
  memory('r1', 2, M1, [sha(E1)]),
  evidence('r1', 4, 'pi:s', E2),
  memory('r1', 4, M2, [sha(E1), sha(E2)]),
];

function fold(
  payloads: Parameters<typeof chainEvents>[1],
  emitEvidenceNotes = false,
): { state: VaultFold; effects: FoldEffect[] } {
  const state = emptyFold('demo');
  const events = chainEvents('demo', payloads, { startTs: '2026-08-17T09:00:00.000Z' });
  const effects = events.map(({ event }) => applyEvent(state, event, { emitEvidenceNotes }));
  return { state, effects };
}

describe('tombstones', () => {
  it('render a tombstoned current memory as removed, with the reason, and cite nothing', () => {
    const { state } = fold([...BASE, tombstone(sha(M2), 'contains a customer\nhostname')]);
    const note = renderQueryNote(state, 'infra', { emitEvidenceNotes: false });
    expect(
      note.endsWith(
        '# Infra — demo\n\nMemory removed by a tombstone: contains a customer hostname\n',
      ),
    ).toBe(true);
    expect(note).not.toContain('pg startup race');
  });

  it('do not fall back to an earlier memory', () => {
    const { state } = fold([...BASE, tombstone(sha(M2), 'wrong')]);
    expect(renderQueryNote(state, 'infra', { emitEvidenceNotes: false })).not.toContain(
      'Kong body buffering',
    );
  });

  it('drop tombstoned evidence from provenance, and its source note once it lists nothing, and date the note by the tombstone', () => {
    const { state, effects } = fold([...BASE, tombstone(sha(E1), 'secret in transcript')]);
    const note = renderQueryNote(state, 'infra', { emitEvidenceNotes: false });
    expect(note).toContain(
      `\n  - from pi-s chunk [[demo/sources/pi-s#^${sha(E2).slice(0, 8)}|4]]\n`,
    );
    expect(note).not.toContain('claude-s');
    expect(effects.at(-1)?.touched).toEqual([
      { kind: 'query', queryId: 'infra' },
      { kind: 'source', slug: 'claude-s' },
    ]);
    expect([...renderProjectNotes(state, { emitEvidenceNotes: false }).keys()]).toEqual([
      'demo/index.md',
      'demo/infra.md',
      'demo/sources/pi-s.md',
    ]);
  });

  it('hide a tombstoned line of the current memory, and only that line', () => {
    const { state, effects } = fold([...BASE, tombstone(sha('pg startup race.'), 'wrong')]);
    const note = renderQueryNote(state, 'infra', { emitEvidenceNotes: false });
    expect(note).toContain(`- Kong body buffering. ^${sha('Kong body buffering.').slice(0, 8)}\n`);
    expect(note).not.toContain('pg startup race');
    expect(effects.at(-1)?.touched).toEqual([{ kind: 'query', queryId: 'infra' }]);
  });

  it('remove the evidence note of tombstoned evidence, and never write one for evidence tombstoned first', () => {
    const { effects } = fold([...BASE, tombstone(sha(E1), 'secret')], true);
    expect(effects.filter((e) => e.evidenceNote).map((e) => e.evidenceNote?.path)).toEqual([
      `demo/evidence/claude-s-chunk2-${sha(E1).slice(0, 8)}.md`,
      `demo/evidence/pi-s-chunk4-${sha(E2).slice(0, 8)}.md`,
    ]);
    expect(effects.at(-1)?.evidenceRemoved).toBe(
      `demo/evidence/claude-s-chunk2-${sha(E1).slice(0, 8)}.md`,
    );
    const early = fold(
      [l1Run('r1', 'infra'), tombstone(sha(E1), 'secret'), evidence('r1', 2, 'claude:s', E1)],
      true,
    );
    expect(early.effects.some((e) => e.evidenceNote)).toBe(false);
  });

  it('leave notes that never showed the target untouched', () => {
    const { effects } = fold([...BASE, tombstone(sha('unrelated'), 'noise')]);
    expect(effects.at(-1)?.touched).toEqual([]);
  });

  it('hide a tombstoned L1 memory from the synthesis provenance, and a tombstoned synthesis', () => {
    const synthesis = [
      l2Run('s1'),
      chunk('s1', 1, 'L1:infra', 'L1', sha(M2)),
      gate('s1', 1, true, 'L2'),
      memory('s1', 1, 'State: two fixes.', [sha(M2)], 'L2'),
    ];
    const hidden = fold([...BASE, ...synthesis, tombstone(sha(M2), 'wrong')]).state;
    expect(renderIndexNote(hidden)).toContain(
      '\n  - from nothing left: what it rested on was removed by a tombstone\n',
    );
    const removed = fold([
      ...BASE,
      ...synthesis,
      tombstone(sha('State: two fixes.'), 'stale'),
    ]).state;
    expect(renderIndexNote(removed)).toContain(
      '\n# demo\n\nMemory removed by a tombstone: stale\n',
    );
  });
});
