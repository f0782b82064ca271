import { describe, expect, it } from 'vitest';
import { contentSha256 } from '../identity.js';
import { thrown } from '../../../../test/support/thrown.js';
import { hasErrorCode } from '../errors.js';
import { parseEvent, parsePayload } from './parse.js';
import { purgeMarker } from './purge-payloads.js';

// Only a purge writes a marker, into logged lines; a writer's payload holding one could carry
// any sha past the content checks that skip marked lines (issue 12, item 6).
const sha = (text: string) => contentSha256(text);
const E1 = sha('kong evidence');
const MARKER = purgeMarker(sha('Ines Okonkwo-Vardanyan'));
const KEPT = 'Kong buffered bodies over 10KB.';
const MARKED = `${MARKER} rotated the staging key.`;
const TEXT = `- ${KEPT}\n- ${MARKED}`;

function memory(lineSha: string) {
  return {
    type: 'memory',
    run_id: 'r-1',
    level: 'L1',
    t: 1,
    text: TEXT,
    tokens: 12,
    parents: [E1],
    sha256: sha(TEXT),
    lines: [
      { sha256: sha(KEPT), parents: [E1] },
      { sha256: lineSha, parents: [E1] },
    ],
  };
}

describe('purge markers in new payloads', () => {
  it('refuses a memory payload with a marked line and a wrong line sha, naming the marker', () => {
    const error = thrown(() => parsePayload(memory('b'.repeat(64))));
    expect(hasErrorCode(error, 'INVALID_EVENT')).toBe(true);
    expect(error).toMatchObject({ details: { type: 'memory', field: 'text' } });
    expect((error as Error).message).toContain('purge marker');
  });

  it('refuses a marked evidence payload even when its sha matches: only a purge writes a marker', () => {
    const text = `rotated by ${MARKER}`;
    const error = thrown(() =>
      parsePayload({
        type: 'evidence',
        run_id: 'r-1',
        level: 'L0',
        t: 1,
        source: 'claude:s',
        text,
        sha256: sha(text),
      }),
    );
    expect(hasErrorCode(error, 'INVALID_EVENT')).toBe(true);
    expect(error).toMatchObject({ details: { type: 'evidence', field: 'text' } });
  });

  it('still reads a logged memory a purge rewrote: its marked line keeps the sha it was cited by', () => {
    const event = parseEvent({
      seq: 4,
      ts: '2026-01-01T00:00:00.000Z',
      project: 'demo',
      v: 2,
      writer: { kind: 'cli' },
      ...memory(sha('Ines Okonkwo-Vardanyan rotated the staging key.')),
      sha256: sha('the text before the purge'),
      prev: sha('prev'),
    });
    expect(event.type).toBe('memory');
  });
});
