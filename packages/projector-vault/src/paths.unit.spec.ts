import { describe, expect, it } from 'vitest';
import { evidenceNotePath, indexNotePath, queryNotePath, queryTitle, sourceSlug } from './paths.js';
import { excerptOf, markdownBlock } from './text.js';

describe('note names', () => {
  it('slugs source URIs stably and filename-safely', () => {
    expect(sourceSlug('pi:2026-07-21T16-23-59_019f857d')).toBe('pi-2026-07-21t16-23-59-019f857d');
    expect(sourceSlug('claude:0b7f4f9e-session')).toBe('claude-0b7f4f9e-session');
    expect(sourceSlug('locomo:conv-1#D1:3')).toBe('locomo-conv-1-d1-3');
    expect(sourceSlug('::/')).toBe('source');
    expect(sourceSlug(`x:${'a'.repeat(200)}`).length).toBeLessThanOrEqual(80);
  });

  it('titles a query from its id', () => {
    expect(queryTitle('infra-root-causes')).toBe('Infra root causes');
    expect(queryTitle('q')).toBe('Q');
  });

  it('places notes under the project', () => {
    expect(queryNotePath('poimen', 'infra-root-causes')).toBe('poimen/infra-root-causes.md');
    expect(queryNotePath('poimen', 'index')).toBe('poimen/_index.md');
    expect(indexNotePath('poimen')).toBe('poimen/index.md');
    expect(evidenceNotePath('poimen', 'pi:x', 66, 'ab'.repeat(32))).toBe(
      'poimen/evidence/pi-x-chunk66-abababab.md',
    );
  });
});

describe('text', () => {
  it('excerpts at a word boundary with an ellipsis', () => {
    expect(excerptOf('short\n text')).toBe('short text');
    const long = 'POST /upload returned 413 Request Entity Too Large for bodies over 10KB.';
    expect(excerptOf(long)).toBe('POST /upload returned 413 Request Entity Too Large for…');
    expect(Array.from(excerptOf('😀'.repeat(100))).length).toBe(61);
  });

  it('turns event text into an LF markdown block', () => {
    expect(markdownBlock('\n\r\n  - a\r\n- b  \r\n\n')).toBe('  - a\n- b');
  });
});
