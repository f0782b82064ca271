import { eventKeyOrder, type LogEvent } from './catalogue.js';

const WRITER_KEYS = ['kind', 'principal', 'token'] as const;
const NESTED_ORDER: Record<string, readonly string[]> = {
  writer: WRITER_KEYS,
  error: ['code', 'message'],
};
/** Arrays of objects whose entries have a fixed key order too (`lines` of a memory: sha256, parents, signatures; of a purge: seq, old, new). */
const ARRAY_ORDER: Record<string, readonly string[]> = {
  lines: ['sha256', 'parents', 'signatures', 'seq', 'old', 'new'],
  signatures: ['sig_sha', 'signature', 'tool'],
  refuses: ['sha256', 'terms'],
};

/**
 * A nested object in its fixed key order. A field the order does not name would be dropped
 * from the line without a word (the trap a new array-entry field walks into), so it is a
 * programming error here instead.
 */
function orderedEntry(
  field: string,
  value: Record<string, unknown>,
  keys: readonly string[],
): Record<string, unknown> {
  const stray = Object.keys(value).find((key) => value[key] !== undefined && !keys.includes(key));
  if (stray !== undefined)
    throw new Error(
      `serializeEvent: ${field}.${stray} has no place in the key order (serialize.ts)`,
    );
  return ordered(value, keys);
}

function ordered(value: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const v = value[key];
    if (v === undefined) continue;
    const nested = NESTED_ORDER[key];
    const entries = ARRAY_ORDER[key];
    if (entries && Array.isArray(v))
      out[key] = v.map((entry) => orderedEntry(key, entry as Record<string, unknown>, entries));
    else
      out[key] =
        nested && v !== null && typeof v === 'object'
          ? orderedEntry(key, v as Record<string, unknown>, nested)
          : v;
  }
  return out;
}

/**
 * The exact bytes of a log line (without its `\n`): keys in catalogue order,
 * absent optionals omitted. Same event, same string, on every machine.
 */
export function serializeEvent(event: LogEvent): string {
  const order = eventKeyOrder(event.type);
  // Fast path: an event built in catalogue order (as the log and zod build them) stringifies as is.
  if (inOrder(event, order)) return JSON.stringify(event);
  return JSON.stringify(ordered(event, order));
}

function inOrder(value: Record<string, unknown>, order: readonly string[]): boolean {
  let next = 0;
  for (const key in value) {
    const v = value[key];
    if (v === undefined) return false;
    while (next < order.length && order[next] !== key) next++;
    if (next === order.length) return false;
    const nested = NESTED_ORDER[key];
    if (
      nested &&
      v !== null &&
      typeof v === 'object' &&
      !inOrder(v as Record<string, unknown>, nested)
    )
      return false;
    const entries = ARRAY_ORDER[key];
    if (
      entries &&
      Array.isArray(v) &&
      !v.every((entry) => inOrder(entry as Record<string, unknown>, entries))
    )
      return false;
    next++;
  }
  return true;
}
