/** A zod issue's path as a field name a person reads: `items[0].type`. */
export function issueField(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path)
    out += typeof key === 'number' ? `[${key}]` : out === '' ? String(key) : `.${String(key)}`;
  return out;
}

/** The value a zod issue's path points at in the input, or undefined where the path leaves it. */
export function issueValue(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path)
    value =
      value === null || typeof value !== 'object'
        ? undefined
        : (value as Record<PropertyKey, unknown>)[key];
  return value;
}
