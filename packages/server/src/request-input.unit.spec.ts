import { describe, expect, it } from 'vitest';
import { hasErrorCode } from '@mem/core';
import { credentialOf } from './credential.js';
import { bodyInput, mergeInput, queryInput } from './request-input.js';

const schema = {
  type: 'object',
  properties: {
    query: { type: 'string' },
    project: { type: 'array', items: { type: 'string' } },
    limit: { type: 'integer' },
    loadable: { type: 'boolean' },
    projects: { anyOf: [{ const: '*' }, { type: 'array' }] },
  },
};

function refusal(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('queryInput', () => {
  it('turns the query string into typed input where the schema says so', () => {
    const params = new URLSearchParams(
      'query=why+10KB&project=a,b&project=c&limit=3&loadable=true&projects=*&other=x',
    );
    expect(queryInput(params, schema)).toEqual({
      query: 'why 10KB',
      project: ['a', 'b', 'c'],
      limit: 3,
      loadable: true,
      projects: '*',
      other: 'x',
    });
  });

  it('leaves what does not convert for validation to name, and refuses a scalar given twice', () => {
    expect(queryInput(new URLSearchParams('limit=ten'), schema)).toEqual({ limit: 'ten' });
    expect(
      hasErrorCode(
        refusal(() => queryInput(new URLSearchParams('query=a&query=b'), schema)),
        'INVALID_INPUT',
      ),
    ).toBe(true);
  });
});

describe('bodyInput and mergeInput', () => {
  it('accepts a JSON object, refuses anything else', () => {
    expect(bodyInput('{"a":1}', 'application/json; charset=utf-8')).toEqual({ a: 1 });
    expect(bodyInput('', undefined)).toEqual({});
    for (const [text, type] of [
      ['{', 'application/json'],
      ['[1]', 'application/json'],
      ['null', 'application/json'],
      ['{"a":1}', 'text/plain'],
    ] as const) {
      expect(
        hasErrorCode(
          refusal(() => bodyInput(text, type)),
          'INVALID_INPUT',
        ),
      ).toBe(true);
    }
  });

  it('refuses a field given in two places', () => {
    expect(
      hasErrorCode(
        refusal(() => mergeInput({ project: 'a' }, { project: 'b' })),
        'INVALID_INPUT',
      ),
    ).toBe(true);
    expect(mergeInput({ a: 1 }, { b: 2 })).toEqual({ a: 1, b: 2 });
  });

  it('keeps prototype-named keys as own fields: never "given twice", never a prototype', () => {
    const merged = mergeInput(
      JSON.parse('{"__proto__":{"project":"beta"},"constructor":1}') as Record<string, unknown>,
      { toString: 'x' },
    );
    expect(Object.keys(merged)).toEqual(['__proto__', 'constructor', 'toString']);
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(merged['project']).toBeUndefined();
    expect(
      Object.keys(queryInput(new URLSearchParams('__proto__=x&constructor=y'), schema)),
    ).toEqual(['__proto__', 'constructor']);
  });
});

describe('credentialOf', () => {
  const headers = (h: Record<string, string>) => (name: string) => h[name];
  it('reads Bearer, x-api-key and apikey; the same token twice is fine, two different ones are not', () => {
    expect(credentialOf(headers({ authorization: 'Bearer t1' }))).toBe('t1');
    expect(credentialOf(headers({ 'x-api-key': 't1' }))).toBe('t1');
    expect(credentialOf(headers({ apikey: 't1', authorization: 'bearer t1' }))).toBe('t1');
    expect(credentialOf(headers({}))).toBeUndefined();
    expect(
      hasErrorCode(
        refusal(() => credentialOf(headers({ apikey: 't1', 'x-api-key': 't2' }))),
        'UNAUTHENTICATED',
      ),
    ).toBe(true);
    expect(
      hasErrorCode(
        refusal(() => credentialOf(headers({ authorization: 'Token t1' }))),
        'UNAUTHENTICATED',
      ),
    ).toBe(true);
  });
});
