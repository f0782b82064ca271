/** JSON with object keys sorted at every depth (arrays keep their order), one line, LF-terminated. */
export function stableJson(value: unknown): string {
  return `${JSON.stringify(sortKeys(value))}\n`;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const keys = Object.keys(value).sort();
  // fromEntries defines own properties, so even a key such as "__proto__" stays data.
  return Object.fromEntries(
    keys.map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  );
}
