import { describe, expect, it } from 'vitest';
import { MemError } from '@mem/core';
import { UsageError, describeError, exitCodeFor } from './exit.js';

describe('one exit code per error code, whichever command threw it', () => {
  it('a refused input (INVALID_INPUT, INVALID_PROJECT) exits 2, thrown bare as by log append or eval gate', () => {
    expect(exitCodeFor(new MemError('INVALID_INPUT', 'x.json: not LoCoMo JSON'))).toBe(2);
    expect(exitCodeFor(new MemError('INVALID_PROJECT', '--project: bad name'))).toBe(2);
  });

  it('a refusal that depends on what the root holds exits 1', () => {
    for (const code of ['NOT_FOUND', 'CONFLICT', 'FORGOTTEN', 'IO_FAILED'] as const)
      expect(exitCodeFor(new MemError(code, 'x')), code).toBe(1);
  });
});

describe('a flag a command refused itself (UsageError)', () => {
  const refused = new UsageError('--port: expected 0-65535, got "99999"');

  it('exits 2 and names its code, as a refused registry input does', () => {
    expect(exitCodeFor(refused)).toBe(2);
    expect(describeError(refused, false)).toBe(
      'mem: --port: expected 0-65535, got "99999" [INVALID_INPUT]',
    );
  });

  it('--json gives the same code', () => {
    expect(JSON.parse(describeError(refused, true)!)).toEqual({
      error: { code: 'INVALID_INPUT', message: '--port: expected 0-65535, got "99999"' },
    });
  });

  it('a usage error caused by a MemError keeps that error and its code', () => {
    const cause = new MemError('INVALID_PROJECT', '--project: bad name', { field: 'project' });
    expect(describeError(new UsageError(cause.message, { cause }), false)).toBe(
      'mem: --project: bad name [INVALID_PROJECT]',
    );
  });
});

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const RAW = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;

describe('stored text in an error printed on stderr', () => {
  // A ref echoed back in a NOT_FOUND: an ESC, a C1 control (NEL) and a bidi override.
  const error = new MemError('NOT_FOUND', 'no line matches "a\u001bb\u0085c\u202ed"');

  it('--json escapes C1 and bidi controls as \\u escapes, and the JSON is the same value', () => {
    const body = describeError(error, true)!;
    expect(body).not.toMatch(RAW);
    expect(body).toContain('\\u0085');
    expect(body).toContain('\\u202e');
    expect(JSON.parse(body)).toEqual({ error: error.toJSON() });
  });

  it('the text line shows them as visible escapes', () => {
    const line = describeError(error, false)!;
    expect(line).not.toMatch(RAW);
    expect(line).toBe('mem: no line matches "a\\x1bb\\x85c\\u202ed" [NOT_FOUND]');
  });
});
