import type { z } from 'zod';
import { MemError, issueField, issueValue } from '@mem/core';

/** `1 character`, `3 items`: a bound with its unit, in the right number. */
function sized(n: number | bigint, origin: string): string {
  const unit = origin === 'string' ? 'character' : origin === 'array' ? 'item' : '';
  if (unit === '') return String(n);
  return `${String(n)} ${unit}${Number(n) === 1 ? '' : 's'}`;
}

function expectedOf(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.expected;
    case 'unrecognized_keys':
      return 'no other fields';
    case 'invalid_value':
      return `one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'too_big':
      return `at most ${sized(issue.maximum, issue.origin)}`;
    case 'too_small':
      return `at least ${sized(issue.minimum, issue.origin)}`;
    default:
      // A schema's own message says `expected …`; the shape is what follows the word.
      return issue.message.replace(/^expected /iu, '');
  }
}

function shown(value: unknown): string {
  return (JSON.stringify(value) ?? String(value)).slice(0, 80);
}

/**
 * What is wrong, said as a person would: `missing, expected string`, `expected number, got
 * "abc"`, not zod's "Invalid input: expected string, received undefined".
 */
function problemOf(issue: z.core.$ZodIssue, input: unknown): string {
  if (issue.code === 'unrecognized_keys')
    return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`;
  if (issue.code === 'invalid_type') {
    const value = issueValue(input, issue.path);
    if (value === undefined) return `missing, expected ${issue.expected}`;
    return `expected ${issue.expected}, got ${shown(value)}`;
  }
  if (issue.code === 'invalid_value' || issue.code === 'too_big' || issue.code === 'too_small') {
    const value = issueValue(input, issue.path);
    // A too-long string or list is not echoed back: its length says what is wrong.
    const got =
      typeof value === 'string' || Array.isArray(value)
        ? issue.code === 'invalid_value'
          ? shown(value)
          : value.length === 0
            ? typeof value === 'string'
              ? 'an empty string'
              : 'an empty list'
            : sized(value.length, typeof value === 'string' ? 'string' : 'array')
        : shown(value);
    return `expected ${expectedOf(issue)}, got ${got}`;
  }
  return issue.message;
}

/**
 * Fields one route or read names otherwise than another: an item read says `summary` and
 * `source`, `remember` takes `text` and `source_uri`, add_items `summary` and `source_uri`. An
 * unknown field of a pair is told its partner's name where the schema has it, never taken as an
 * alias (one name per field on each route).
 */
const SAME_FIELD: readonly (readonly [string, string])[] = [
  ['summary', 'text'],
  ['source', 'source_uri'],
];

/** The field `key` is called where `accepted` are the fields, when it is one of a SAME_FIELD pair. */
function calledHere(key: string, accepted: readonly string[]): string | undefined {
  if (accepted.includes(key)) return undefined;
  for (const [a, b] of SAME_FIELD) {
    if (key === a && accepted.includes(b)) return b;
    if (key === b && accepted.includes(a)) return a;
  }
  return undefined;
}

/** The object schema at `path` inside `schema` (through optional, default, pipe, array), or null. */
function objectAt(schema: z.core.$ZodType, path: readonly PropertyKey[]): z.core.$ZodObject | null {
  let at: z.core.$ZodType | undefined = schema;
  let rest = [...path];
  for (let step = 0; at !== undefined && step < 64; step++) {
    const def = at._zod.def as z.core.$ZodTypeDef & {
      innerType?: z.core.$ZodType;
      in?: z.core.$ZodType;
      element?: z.core.$ZodType;
      shape?: Record<string, z.core.$ZodType>;
    };
    if (def.type === 'object') {
      if (rest.length === 0) return at as z.core.$ZodObject;
      const key = rest.shift()!;
      at = typeof key === 'string' && Object.hasOwn(def.shape!, key) ? def.shape![key] : undefined;
    } else if (def.type === 'array') {
      if (typeof rest[0] !== 'number') return null;
      rest = rest.slice(1);
      at = def.element;
    } else at = def.innerType ?? def.in;
  }
  return null;
}

/**
 * The shape an object with unknown keys was expected to have: its accepted fields, and for a
 * field a read names otherwise, the name to use here.
 */
function fieldsExpected(schema: z.core.$ZodType, issue: z.core.$ZodIssueUnrecognizedKeys): string {
  const object = objectAt(schema, issue.path);
  if (object === null) return 'no other fields';
  const accepted = Object.keys(object._zod.def.shape);
  const renamed = issue.keys.flatMap((key) => {
    const here = calledHere(key, accepted);
    return here === undefined ? [] : [`${key} is ${here} here`];
  });
  return `only the fields ${accepted.join(', ')}${renamed.length > 0 ? ` (${renamed.join('; ')})` : ''}`;
}

/** The details a refinement attached to its issue (`params`: inapplicableDetails), or none. */
function paramsOf(issue: z.core.$ZodIssue): Record<string, unknown> | undefined {
  return issue.code === 'custom' && issue.params !== undefined ? issue.params : undefined;
}

/**
 * INVALID_INPUT for a failed parse of `input` by `schema`: the first bad field and the expected
 * shape (seed 000 §6: "which field, and what shape was expected"); `details.issues` lists them
 * all, and a refinement's own details (its issue's `params`) join the first's. `fieldOf` renames
 * a field where the operation calls it otherwise than the schema parsed (remember's `anchor`).
 */
export function inputRefusal(
  schema: z.core.$ZodType,
  error: z.core.$ZodError,
  input: unknown,
  operation: string,
  fieldOf: (field: string) => string = (field) => field,
): MemError {
  const issues = error.issues.map((issue) => {
    const field = fieldOf(
      issue.code === 'unrecognized_keys'
        ? issueField([...issue.path, issue.keys[0] ?? ''])
        : issueField(issue.path) || '(input)',
    );
    const params = paramsOf(issue);
    const expected =
      issue.code === 'unrecognized_keys'
        ? fieldsExpected(schema, issue)
        : typeof params?.['expected'] === 'string'
          ? params['expected']
          : expectedOf(issue);
    return { field, expected, problem: problemOf(issue, input) };
  });
  const first = issues[0]!;
  const params = paramsOf(error.issues[0]!);
  // A schema's own refusal is its problem and its shape at once: said once, not "X (expected X)";
  // so is a refinement's that says what it expects in its details.
  const said =
    /expected/i.test(first.problem) || first.problem === first.expected || params !== undefined
      ? first.problem
      : `${first.problem} (expected ${first.expected})`;
  return new MemError('INVALID_INPUT', `${operation}: ${first.field}: ${said}`, {
    field: first.field,
    ...params,
    expected: first.expected,
    issues,
  });
}

/**
 * Parses an operation's input: the parsed value, or INVALID_INPUT naming the first bad field
 * and the expected shape (inputRefusal).
 */
export function validateInput<T>(schema: z.ZodType<T>, input: unknown, operation: string): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw inputRefusal(schema, result.error, input, operation);
}

/** The write boundary's control-character check lives in core: `mem log append` runs it too. */
export { refuseControlText } from '@mem/core';
