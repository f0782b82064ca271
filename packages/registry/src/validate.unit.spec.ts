import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import type { MemError } from '@mem/core';
import { refuseControlText, validateInput } from './validate.js';

const schema = z.strictObject({
  project: z.string(),
  limit: z.int().min(1).max(100).optional(),
  level: z.array(z.enum(['L1', 'L2'])).optional(),
});

function invalid(input: unknown): { code: string; details: { field: string; expected: string } } {
  try {
    validateInput(schema, input, 'query');
  } catch (error) {
    return error as { code: string; details: { field: string; expected: string } };
  }
  throw new Error('expected INVALID_INPUT');
}

describe('validateInput', () => {
  it('names the field and the expected shape', () => {
    expect(invalid({}).details).toMatchObject({ field: 'project', expected: 'string' });
    expect(invalid({ project: 'a', limit: 'x' }).details).toMatchObject({
      field: 'limit',
      expected: 'number',
    });
    expect(invalid({ project: 'a', limit: 500 }).details).toMatchObject({
      field: 'limit',
      expected: 'at most 100',
    });
    expect(invalid({ project: 'a', level: ['L9'] }).details).toMatchObject({
      field: 'level[0]',
      expected: 'one of "L1", "L2"',
    });
    expect(invalid({ project: 'a', limt: 3 })).toMatchObject({
      code: 'INVALID_INPUT',
      details: { field: 'limt', expected: 'only the fields project, limit, level' },
    });
  });

  it('lists the accepted fields for an unknown one, and names the field another route calls it', () => {
    const remember = z.strictObject({
      project: z.string(),
      text: z.string().optional(),
      items: z.array(z.strictObject({ summary: z.string(), source_uri: z.string() })).optional(),
      source_uri: z.string().optional(),
    });
    const refusal = (input: unknown) => {
      try {
        validateInput(remember, input, 'remember');
      } catch (error) {
        return error as { message: string; details: { field: string; expected: string } };
      }
      throw new Error('expected INVALID_INPUT');
    };
    const top = refusal({ project: 'shop', summary: 'x', source: 'docs/a.md' });
    expect(top.details).toMatchObject({
      field: 'summary',
      expected:
        'only the fields project, text, items, source_uri (summary is text here; source is source_uri here)',
    });
    expect(top.message).toBe(
      'remember: summary: unknown fields "summary", "source" (expected only the fields project, text, items, source_uri (summary is text here; source is source_uri here))',
    );
    // Inside a list of objects: the fields of that object, and the pair the other way round.
    expect(
      refusal({ project: 'shop', items: [{ summary: 'x', source_uri: 'a', text: 'y' }] }).details,
    ).toMatchObject({
      field: 'items[0].text',
      expected: 'only the fields summary, source_uri (text is summary here)',
    });
    // A name of no other route: the fields alone.
    expect(refusal({ project: 'shop', colour: 'red' }).details.expected).toBe(
      'only the fields project, text, items, source_uri',
    );
  });

  it("says what is wrong as a person would, not in zod's words", () => {
    const problem = (input: unknown) =>
      (invalid(input).details as unknown as { issues: { problem: string }[] }).issues[0]!.problem;
    expect(problem({})).toBe('missing, expected string');
    expect(problem({ project: 'a', limit: 'x' })).toBe('expected number, got "x"');
    expect(problem({ project: 'a', limit: 500 })).toBe('expected at most 100, got 500');
    expect(problem({ project: 'a', limit: 0 })).toBe('expected at least 1, got 0');
    expect(problem({ project: 'a', level: ['L9'] })).toBe('expected one of "L1", "L2", got "L9"');
    expect(problem({ project: 'a'.repeat(5), limit: 2.5 })).toMatch(/^expected int/u);
  });

  it('gives a length with its unit in the right number, and calls nothing empty', () => {
    const texts = z.strictObject({
      query: z.string().min(1).max(3),
      tags: z.array(z.string()).min(1),
    });
    const first = (input: unknown) => {
      try {
        validateInput(texts, input, 'query');
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error('expected INVALID_INPUT');
    };
    expect(first({ query: '', tags: ['a'] })).toBe(
      'query: query: expected at least 1 character, got an empty string',
    );
    expect(first({ query: 'abcd', tags: ['a'] })).toBe(
      'query: query: expected at most 3 characters, got 4 characters',
    );
    expect(first({ query: 'a', tags: [] })).toBe(
      'query: tags: expected at least 1 item, got an empty list',
    );
  });

  it("gives a schema's own 'expected …' message as the shape, without the word twice", () => {
    const when = z.strictObject({
      now: z.string().regex(/^\d{4}-/u, 'expected an ISO-8601 timestamp'),
    });
    const error = (() => {
      try {
        validateInput(when, { now: 'yesterday' }, 'orient');
      } catch (caught) {
        return caught as Error & { details: { expected: string } };
      }
      throw new Error('expected INVALID_INPUT');
    })();
    expect(error.details.expected).toBe('an ISO-8601 timestamp');
    expect(error.message).toBe('orient: now: expected an ISO-8601 timestamp');
  });

  it("says a schema's own refusal once: not 'X (expected X)'", () => {
    // add_items' refinement of a field that does not apply, as the walk on a real server read it.
    const task = z.strictObject({ valid_until: z.string().optional() }).superRefine((v, ctx) => {
      if (v.valid_until !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['valid_until'],
          message: 'valid_until does not apply to a task: it applies to rule, fact only',
        });
    });
    const error = (() => {
      try {
        validateInput(task, { valid_until: '2027-01-01T00:00:00Z' }, 'add_items');
      } catch (caught) {
        return caught as Error & { details: { field: string; expected: string } };
      }
      throw new Error('expected INVALID_INPUT');
    })();
    expect(error.message).toBe(
      'add_items: valid_until: valid_until does not apply to a task: it applies to rule, fact only',
    );
    expect(error.details).toMatchObject({
      field: 'valid_until',
      expected: 'valid_until does not apply to a task: it applies to rule, fact only',
    });
  });

  it('returns the parsed input when it is valid', () => {
    expect(validateInput(schema, { project: 'a', limit: 3 }, 'query')).toEqual({
      project: 'a',
      limit: 3,
    });
  });
});

describe('refuseControlText', () => {
  function refused(input: unknown, verbatim?: readonly string[]) {
    try {
      refuseControlText(input, 'add_items', verbatim);
    } catch (error) {
      return error as MemError;
    }
    return null;
  }

  it('refuses an ANSI escape in a nested free-text field, naming the field and the code point', () => {
    const error = refused({
      project: 'demo',
      items: [{ summary: 'ok' }, { summary: 'a\u001b[31mred' }],
    });
    expect(error?.code).toBe('INVALID_INPUT');
    expect(error?.message).toContain('items[1].summary');
    expect(error?.message).toContain('U+001B');
    expect(error?.details).toMatchObject({ field: 'items[1].summary', code_point: 'U+001B' });
  });

  it('refuses a bidi override and a tag with BEL, and says which it is', () => {
    expect(refused({ reason: 'x\u202ey' })?.message).toContain('bidi control U+202E');
    expect(refused({ tags: ['fine', 'b\u0007'] })?.details).toMatchObject({ field: 'tags[1]' });
  });

  it('accepts newline, tab, ZWJ and ZWNJ, and a verbatim field (a transcript) as it is', () => {
    expect(
      refused({ detail: 'line\n\tindented \u{1F468}\u200d\u{1F469} \u0645\u06cc\u200c' }),
    ).toBeNull();
    expect(
      refused({ records: [{ text: '\u001b[1mbuild ok' }], project: 'p' }, ['records']),
    ).toBeNull();
    expect(refused({ records: [{ text: 'x' }], source: 'a\u001b' }, ['records'])).not.toBeNull();
  });
});
