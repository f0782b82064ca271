import { describe, expect, it } from 'vitest';
import { lfLineEnds, refuseControlText } from './refuse-control-text.js';

describe('lfLineEnds: a write’s CRLF made LF at the boundary', () => {
  it('makes every CRLF in nested strings LF, keeps key order, and leaves verbatim fields and a CR alone as given', () => {
    const given = {
      project: 'alpha',
      items: [
        { summary: 'a\r\nb', tags: ['x\r\ny'] },
        { detail: 'one\r\n\r\ntwo', n: 3 },
      ],
      records: [{ text: 'kept\r\nas sent' }],
      reason: 'lone\rcr',
    };
    const made = lfLineEnds(given, ['records']);
    expect(made).toEqual({
      project: 'alpha',
      items: [
        { summary: 'a\nb', tags: ['x\ny'] },
        { detail: 'one\n\ntwo', n: 3 },
      ],
      records: [{ text: 'kept\r\nas sent' }],
      reason: 'lone\rcr',
    });
    expect(Object.keys(made as object)).toEqual(Object.keys(given));
    // The input is not changed in place.
    expect(given.items[0]!.summary).toBe('a\r\nb');
    // What is left is still refused: the CR alone, named.
    expect(() => refuseControlText(made, 'remember', ['records'])).toThrow(/reason: .*U\+000D/);
  });

  it('keeps a prototype-named key an own field, never a prototype', () => {
    const made = lfLineEnds(JSON.parse('{"__proto__": {"x": "a\\r\\nb"}}')) as object;
    expect(Object.getPrototypeOf(made)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(made, '__proto__')?.value).toEqual({ x: 'a\nb' });
  });
});
