import { scrubSecrets } from './scrub.js';

/**
 * Deeper than any payload of the catalogue (payload → records → record → field): a string
 * below this can only belong to input the schema refuses, so it is left for validation to reject.
 */
const MAX_DEPTH = 6;

/**
 * A copy of a JSON value with every string scrubbed of secrets (keys stay: strict schemas
 * refuse unknown ones). Deterministic, so an identity such as `source` or `ingest_id` maps to
 * the same scrubbed identity every time. Values without secrets come back as they were.
 */
export function scrubStrings(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubSecrets(value).text;
  if (value === null || typeof value !== 'object' || depth >= MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((item) => {
      const scrubbed = scrubStrings(item, depth + 1);
      changed ||= scrubbed !== item;
      return scrubbed;
    });
    return changed ? out : value;
  }
  let changed = false;
  const entries = Object.entries(value).map(([key, item]) => {
    const scrubbed = scrubStrings(item, depth + 1);
    changed ||= scrubbed !== item;
    return [key, scrubbed] as const;
  });
  // fromEntries defines own properties, so a `__proto__` key stays a key (and is refused as unknown).
  return changed ? Object.fromEntries(entries) : value;
}
