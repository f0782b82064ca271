import { hasErrorCode, type LogEvent } from '@mem/core';
import { describe, expect, it } from 'vitest';
import { chainEvents } from '../../../test/support/events.js';
import {
  chunk,
  evidence,
  gate,
  l1Run,
  l2Run,
  memory,
  reference,
  runEnd,
  sha,
} from '../test/payloads.js';
import {
  applyEvent,
  emptyFold,
  projectorVault,
  renderIndexNote,
  renderProjectNotes,
  renderQueryNote,
  type VaultFold,
} from './index.js';

const OPTIONS = { emitEvidenceNotes: false };

function fold(payloads: Parameters<typeof chainEvents>[1], startTs?: string): VaultFold {
  const state = emptyFold('demo');
  // Routed as the engine routes: the fold never sees a type the vault does not handle.
  const events = chainEvents('demo', payloads, startTs ? { startTs } : {}).filter(({ event }) =>
    projectorVault.handles.includes(event.type),
  );
  for (const { event } of events) applyEvent(state, event, OPTIONS);
  return state;
}

describe('applyEvent', () => {
  it('counts gates of a run that crashed before run_end', () => {
    const state = fold([
      l1Run('r1', 'q'),
      chunk('r1', 1, 'pi:s'),
      gate('r1', 1, false),
      chunk('r1', 2, 'pi:s'),
      gate('r1', 2, true),
    ]);
    expect(state.queries.get('q')).toMatchObject({ chunks_seen: 2, chunks_used: 1, memory: null });
    expect(renderQueryNote(state, 'q', OPTIONS)).toContain(
      '# Q — demo\n\nNo memory yet: no chunk has opened the update gate.\n',
    );
  });

  it('sums chunk counts over all runs of a query', () => {
    const state = fold([
      l1Run('r1', 'q'),
      gate('r1', 1, true),
      runEnd('r1', 1, 1, null),
      l1Run('r2', 'q'),
      gate('r2', 1, false),
      gate('r2', 2, true),
      runEnd('r2', 2, 1, null),
    ]);
    expect(state.queries.get('q')).toMatchObject({ chunks_seen: 3, chunks_used: 2 });
  });

  it('dates a note by the ts of the last event that changed it, never the clock', () => {
    const state = fold([l1Run('r1', 'q'), gate('r1', 1, false)], '2031-02-03T23:59:59.000Z');
    expect(state.queries.get('q')?.updated).toBe('2031-02-04');
    expect(renderQueryNote(state, 'q', OPTIONS)).toContain('\nupdated: 2031-02-04\n');
  });

  it('leaves notes alone for reference and recovery events', () => {
    const state = fold(
      [l1Run('r1', 'q'), reference('A runbook section.')],
      '2031-02-03T23:59:59.000Z',
    );
    expect(state.queries.get('q')?.updated).toBe('2031-02-03');
    expect(state.index?.updated).toBe('2031-02-03');
  });

  it('ignores records of a run it never saw announced', () => {
    const state = fold([gate('ghost', 1, true), memory('ghost', 1, 'm', [sha('e')])]);
    expect(state.queries.size).toBe(0);
    expect(state.index).toBeNull();
  });

  it('cites the first occurrence of evidence on each line, sorted by source, chunk, sha', () => {
    const e1 = 'Zeta evidence from pi.';
    const e2 = 'Alpha evidence from claude.';
    const state = fold([
      l1Run('r1', 'q'),
      evidence('r1', 3, 'pi:b', e1),
      evidence('r1', 9, 'claude:a', e2),
      evidence('r1', 10, 'zzz:later-copy', e2),
      memory('r1', 3, 'the memory', [sha(e1), sha(e2), sha(e1)]),
    ]);
    const note = renderQueryNote(state, 'q', OPTIONS);
    const cites = `claude-a chunk [[demo/sources/claude-a#^${sha(e2).slice(0, 8)}|9]]; pi-b chunk [[demo/sources/pi-b#^${sha(e1).slice(0, 8)}|3]]`;
    expect(note).toContain(`\n- the memory ^${sha('the memory').slice(0, 8)}\n  - from ${cites}\n`);
    expect(
      renderProjectNotes(state, OPTIONS).get('demo/sources/zzz-later-copy.md'),
    ).toBeUndefined();
  });

  // The shrunk counterexample of test/memory-chain-agreement.int.spec.ts: the item store's and
  // pgvector's edges gather every event's parents of a text, the note showed only the last's.
  it('cites every evidence a memory text was ever drawn from, in each note that shows it', () => {
    const [e0, e1] = ['evidence 0 about kong.', 'evidence 1 about kong.'];
    const state = fold([
      l1Run('r1', 'q'),
      evidence('r1', 1, 'claude:s', e0),
      memory('r1', 1, '- kong buffer body.', [sha(e0)]),
      l1Run('r2', 'p'),
      evidence('r2', 1, 'claude:s', e1),
      memory('r2', 1, '- kong buffer body.', [sha(e1)]),
    ]);
    for (const queryId of ['q', 'p']) {
      expect(state.queries.get(queryId)?.memory?.parents).toEqual([sha(e0), sha(e1)]);
      // The one line cites both chunks, in each note that shows it.
      expect(state.queries.get(queryId)?.memory?.lines).toEqual([
        { sha256: sha('kong buffer body.'), parents: [sha(e0), sha(e1)] },
      ]);
      const from = renderQueryNote(state, queryId, OPTIONS)
        .split('\n')
        .filter((line) => line.startsWith('  - from'));
      expect(from).toHaveLength(1);
      expect(from[0]).toContain(`#^${sha(e0).slice(0, 8)}|`);
      expect(from[0]).toContain(`#^${sha(e1).slice(0, 8)}|`);
    }
  });

  it('re-renders a note when the evidence it cites arrives after the memory', () => {
    const text = 'Late evidence.';
    const state = fold([l1Run('r1', 'q'), memory('r1', 1, 'm', [sha(text)])]);
    expect(renderQueryNote(state, 'q', OPTIONS)).toContain(
      `  - from evidence ${sha(text).slice(0, 8)} (not in this log)\n`,
    );
    const [late] = chainEvents('demo', [evidence('r1', 1, 'pi:s', text)], {
      startSeq: 99,
      startTs: '2030-01-01T00:00:00.000Z',
    });
    const effect = applyEvent(state, (late as { event: LogEvent }).event, OPTIONS);
    expect(effect.touched).toEqual([
      { kind: 'query', queryId: 'q' },
      { kind: 'source', slug: 'pi-s' },
    ]);
    expect(renderQueryNote(state, 'q', OPTIONS)).toContain(
      `  - from pi-s chunk [[demo/sources/pi-s#^${sha(text).slice(0, 8)}|1]]\n`,
    );
  });

  it('keeps the query named "index" apart from the L2 index note', () => {
    const state = fold([l1Run('r1', 'index'), l1Run('r2', 'other')]);
    expect([...renderProjectNotes(state, OPTIONS).keys()]).toEqual([
      'demo/_index.md',
      'demo/index.md',
      'demo/other.md',
    ]);
    expect(renderIndexNote(state)).toContain(
      '## Notes\n- [[demo/_index|Index]]\n- [[demo/other|Other]]\n',
    );
  });

  it('links each L2 line to the L1 notes it rests on, and says when there is no synthesis', () => {
    const m1 = 'q memory';
    const before = fold([l1Run('r1', 'q'), memory('r1', 1, m1, [sha('e')])]);
    expect(renderIndexNote(before)).toContain(
      '\nNo synthesis yet: no L2 run has written a memory.\n',
    );
    const state = fold([
      l1Run('r1', 'q'),
      memory('r1', 1, m1, [sha('e')]),
      l2Run('s1'),
      chunk('s1', 1, 'L1:q', 'L1', sha(m1)),
      gate('s1', 1, true, 'L2'),
      memory('s1', 1, 'The synthesis.', [sha(m1), sha('unknown')], 'L2'),
    ]);
    const index = renderIndexNote(state);
    expect(index).toContain(`\n# demo\n\n- The synthesis. ^${sha('The synthesis.').slice(0, 8)}\n`);
    expect(index).toContain(
      `\n  - from [[demo/q|Q]] (memory ${sha(m1).slice(0, 8)}); L1 memory ${sha('unknown').slice(0, 8)} (not in this log)\n`,
    );
    expect(state.index).toMatchObject({ chunks_seen: 1, chunks_used: 1 });
  });

  it('refuses an unknown event type, naming its seq', () => {
    const bogus = { seq: 7, type: 'mystery' } as unknown as LogEvent;
    let caught: unknown;
    try {
      applyEvent(emptyFold('demo'), bogus, OPTIONS);
    } catch (error) {
      caught = error;
    }
    expect(hasErrorCode(caught, 'UNKNOWN_EVENT_TYPE')).toBe(true);
    expect((caught as { details: { seq: number } }).details.seq).toBe(7);
  });
});

describe('applyEvent, out-of-order provenance', () => {
  it('re-renders the index when an L1 memory it cites is logged after the synthesis', () => {
    const m1 = 'late L1 memory';
    const state = fold([
      l1Run('r1', 'q'),
      l2Run('s1'),
      memory('s1', 1, 'Synthesis.', [sha(m1)], 'L2'),
    ]);
    expect(renderIndexNote(state)).toContain(
      `  - from L1 memory ${sha(m1).slice(0, 8)} (not in this log)\n`,
    );
    const [late] = chainEvents('demo', [memory('r1', 1, m1, [sha('e')])], { startSeq: 99 });
    const effect = applyEvent(state, (late as { event: LogEvent }).event, OPTIONS);
    expect(effect.touched).toEqual([{ kind: 'query', queryId: 'q' }, { kind: 'index' }]);
    expect(renderIndexNote(state)).toContain(
      `  - from [[demo/q|Q]] (memory ${sha(m1).slice(0, 8)})\n`,
    );
  });
});
