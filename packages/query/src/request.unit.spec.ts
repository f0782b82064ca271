import { hasErrorCode } from '@mem/core';
import { describe, expect, it } from 'vitest';
import { resolveRequest, type QueryRequest } from './request.js';

function codeOf(request: QueryRequest): string | undefined {
  try {
    resolveRequest(request);
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

describe('resolveRequest', () => {
  it('defaults: every project, levels L1 and L2, 10 results, whole citations', () => {
    expect(resolveRequest({ text: 'kong' })).toEqual({ text: 'kong', projects: null, levels: ['L1', 'L2'], limit: 10, citations: 'full' });
  });

  it('sorts and dedupes projects and levels', () => {
    expect(resolveRequest({ text: 'x', projects: ['b', 'a', 'b'], levels: ['R', 'L1', 'R'], limit: 3 })).toMatchObject({ projects: ['a', 'b'], levels: ['L1', 'R'], limit: 3 });
  });

  it('refuses bad input with a typed error naming the field', () => {
    expect(codeOf({ text: '  ' })).toBe('INVALID_INPUT');
    expect(codeOf({ text: 'x', projects: [] })).toBe('INVALID_INPUT');
    expect(codeOf({ text: 'x', projects: ['../etc'] })).toBe('INVALID_PROJECT');
    expect(codeOf({ text: 'x', levels: [] })).toBe('INVALID_INPUT');
    expect(codeOf({ text: 'x', levels: ['L3' as 'L1'] })).toBe('INVALID_INPUT');
    expect(codeOf({ text: 'x', limit: 0 })).toBe('INVALID_INPUT');
    expect(codeOf({ text: 'x', limit: 101 })).toBe('INVALID_INPUT');
    expect(codeOf({ text: 'x', limit: 2.5 })).toBe('INVALID_INPUT');
    expect(codeOf({ text: 7 as unknown as string })).toBe('INVALID_INPUT');
    expect(codeOf({ text: 'x', citations: 'some' as 'full' })).toBe('INVALID_INPUT');
    try {
      resolveRequest({ text: 'x', levels: ['L3' as 'L1'] });
    } catch (error) {
      expect(hasErrorCode(error, 'INVALID_INPUT') && error.details['field']).toBe('levels');
    }
  });
});
