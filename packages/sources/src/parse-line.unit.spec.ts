import { describe, expect, it } from 'vitest';
import { parseLine } from './parse-line.js';

describe('parseLine', () => {
  it('parses one object', () => {
    expect(parseLine('{"type":"user"}')).toEqual({
      values: [{ type: 'user' }],
      invalid: false,
      glued: false,
    });
  });

  it('recovers objects glued together on one line', () => {
    expect(parseLine('{"a":1}{"b":{"c":"}{"}}  {"d":[1,2]}')).toEqual({
      values: [{ a: 1 }, { b: { c: '}{' } }, { d: [1, 2] }],
      invalid: false,
      glued: true,
    });
  });

  it('keeps what parsed before a cut-off object, and says part was invalid', () => {
    expect(parseLine('{"a":1}{"b":')).toEqual({ values: [{ a: 1 }], invalid: true, glued: false });
  });

  it('reports text that is not JSON', () => {
    expect(parseLine('not json')).toEqual({ values: [], invalid: true, glued: false });
    expect(parseLine('{broken')).toEqual({ values: [], invalid: true, glued: false });
  });
});
