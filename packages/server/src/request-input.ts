import { MemError } from '@mem/core';
import { splitList, type JsonSchema } from '@mem/registry';

type Kind = 'array' | 'number' | 'boolean' | 'string' | 'any';

/**
 * Sets `key` as an own data property. Why not `out[key] = value`: a key named `__proto__` would
 * replace the object's prototype (its fields then look present to validation) instead of
 * becoming a field that validation can name and refuse.
 */
function setOwn(out: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
}

/** What a query-string value should become, read off the operation's input JSON Schema. */
function kindOf(schema: JsonSchema | undefined): Kind {
  if (!schema) return 'any';
  const types = new Set<string>();
  const collect = (s: JsonSchema) => {
    if (typeof s['type'] === 'string') types.add(s['type']);
    for (const key of ['anyOf', 'oneOf'] as const)
      for (const sub of (s[key] ?? []) as JsonSchema[]) collect(sub);
  };
  collect(schema);
  if (types.has('array')) return 'array';
  if (types.has('integer') || types.has('number')) return 'number';
  if (types.has('boolean')) return 'boolean';
  return types.size > 0 ? 'string' : 'any';
}

/**
 * The query string as operation input: `level=L1,L2` and `level=L1&level=L2` become a list
 * where the schema wants one, `limit=3` a number, `true`/`false` a boolean; anything that does
 * not convert is left as the string, so validation names the field and the shape it expected.
 * A scalar given twice is refused here.
 */
export function queryInput(params: URLSearchParams, schema: JsonSchema): Record<string, unknown> {
  const properties = (schema['properties'] ?? {}) as Record<string, JsonSchema>;
  const out: Record<string, unknown> = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    // Own properties only: `constructor` or `toString` is not a field of every schema.
    const kind = kindOf(Object.hasOwn(properties, key) ? properties[key] : undefined);
    if (kind === 'array') {
      // `*` alone stands for "all" where a schema accepts it (token projects).
      // The one list rule (splitList): `a, b` is two names on every surface.
      setOwn(out, key, values.length === 1 && values[0] === '*' ? '*' : splitList(values));
      continue;
    }
    if (values.length > 1)
      throw new MemError('INVALID_INPUT', `${key}: given ${values.length} times, expected once`, {
        field: key,
        expected: 'one value',
      });
    const value = values[0]!;
    if (kind === 'number' && /^-?\d+(\.\d+)?$/.test(value)) setOwn(out, key, Number(value));
    else if (kind === 'boolean' && (value === 'true' || value === 'false'))
      setOwn(out, key, value === 'true');
    else setOwn(out, key, value);
  }
  return out;
}

/** A JSON request body as an object; empty means none. INVALID_INPUT when it is not a JSON object. */
export function bodyInput(text: string, contentType: string | undefined): Record<string, unknown> {
  if (text.trim() === '') return {};
  if (contentType !== undefined && !/^application\/(.+\+)?json\s*(;|$)/i.test(contentType)) {
    throw new MemError(
      'INVALID_INPUT',
      `body: expected Content-Type: application/json, got ${JSON.stringify(contentType.slice(0, 100))}`,
      { field: 'body', expected: 'application/json' },
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new MemError(
      'INVALID_INPUT',
      `body: not valid JSON (${(error as Error).message.slice(0, 120)})`,
      { field: 'body', expected: 'a JSON object' },
    );
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new MemError('INVALID_INPUT', 'body: expected a JSON object', {
      field: 'body',
      expected: 'a JSON object',
    });
  }
  return value as Record<string, unknown>;
}

/** Merges query, body and path parameters; a field given in two places is refused, not resolved. */
export function mergeInput(...parts: Record<string, unknown>[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const part of parts) {
    for (const [key, value] of Object.entries(part)) {
      // Own properties only: `key in out` is true for `constructor`, `toString`, … of every object.
      if (Object.hasOwn(out, key))
        throw new MemError(
          'INVALID_INPUT',
          `${key}: given twice (in the path, the query string or the body), expected once`,
          { field: key, expected: 'one value' },
        );
      setOwn(out, key, value);
    }
  }
  return out;
}
