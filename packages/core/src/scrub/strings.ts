import { ANY_TRIGGER } from './patterns.js';
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
export function scrubStrings(value: unknown): unknown {
  // Fast path: one trigger scan over all the value's strings, joined, instead of one per string
  // (an event's envelope strings, hashes and ids hold none). No trigger uses an anchor or a
  // lookaround, so a trigger in any one string is found in the join; one that only spans a
  // join merely takes the slow path, which scrubs string by string.
  const strings: string[] = [];
  collectStrings(value, 0, strings);
  if (strings.length === 0 || !ANY_TRIGGER.test(strings.join('\n'))) return value;
  return scrubEach(value, 0);
}

function collectStrings(value: unknown, depth: number, into: string[]): void {
  if (typeof value === 'string') into.push(value);
  else if (value === null || typeof value !== 'object' || depth >= MAX_DEPTH) return;
  else if (Array.isArray(value)) for (const item of value) collectStrings(item, depth + 1, into);
  else
    for (const key of Object.keys(value))
      collectStrings((value as Record<string, unknown>)[key], depth + 1, into);
}

function scrubEach(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return scrubSecrets(value).text;
  if (value === null || typeof value !== 'object' || depth >= MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((item) => {
      const scrubbed = scrubEach(item, depth + 1);
      changed ||= scrubbed !== item;
      return scrubbed;
    });
    return changed ? out : value;
  }
  let changed = false;
  const entries = Object.entries(value).map(([key, item]) => {
    const scrubbed = scrubEach(item, depth + 1);
    changed ||= scrubbed !== item;
    return [key, scrubbed] as const;
  });
  // fromEntries defines own properties, so a `__proto__` key stays a key (and is refused as unknown).
  return changed ? Object.fromEntries(entries) : value;
}
