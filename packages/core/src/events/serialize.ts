import { eventKeyOrder, type LogEvent } from './catalogue.js';

const WRITER_KEYS = ['kind', 'principal', 'token'] as const;
const NESTED_ORDER: Record<string, readonly string[]> = {
  writer: WRITER_KEYS,
  error: ['code', 'message'],
};
/** Arrays of objects whose entries have a fixed key order too (`lines` of a memory: sha256, parents, signatures; of a purge: seq, old, new; `cited` of a confirmation or supersession: chunk, digest). */
const ARRAY_ORDER: Record<string, readonly string[]> = {
  lines: ['sha256', 'parents', 'signatures', 'seq', 'old', 'new'],
  cited: ['chunk', 'digest'],
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
  if (inOrder(event, positionsOf(order))) return JSON.stringify(event);
  return JSON.stringify(ordered(event, order));
}

/** Each key's position in an order, built once per order: the fast path's check is a map lookup per key. */
const positions = new WeakMap<readonly string[], ReadonlyMap<string, number>>();
function positionsOf(order: readonly string[]): ReadonlyMap<string, number> {
  let at = positions.get(order);
  if (at === undefined) {
    at = new Map(order.map((key, index) => [key, index]));
    positions.set(order, at);
  }
  return at;
}
const NESTED_POSITIONS = new Map(
  Object.entries(NESTED_ORDER).map(([key, order]) => [key, positionsOf(order)]),
);
const ARRAY_POSITIONS = new Map(
  Object.entries(ARRAY_ORDER).map(([key, order]) => [key, positionsOf(order)]),
);

/**
 * Whether `value`'s keys come in the order's sequence (a strictly rising position each), none
 * undefined, its fixed-order nested objects and array entries too: then JSON.stringify writes
 * the canonical line as is. One map lookup per key (a scan of the order per key cost ~0.35 µs
 * of an append's ~14; issue 15, target 4); test/event-key-order.unit.spec.ts holds it to the
 * slow path on shuffled events.
 */
function inOrder(value: Record<string, unknown>, at: ReadonlyMap<string, number>): boolean {
  let last = -1;
  for (const key in value) {
    const v = value[key];
    const position = at.get(key);
    if (v === undefined || position === undefined || position <= last) return false;
    last = position;
    if (v === null || typeof v !== 'object') continue;
    const nested = NESTED_POSITIONS.get(key);
    if (nested !== undefined && !inOrder(v as Record<string, unknown>, nested)) return false;
    const entries = ARRAY_POSITIONS.get(key);
    if (
      entries !== undefined &&
      Array.isArray(v) &&
      !v.every((entry) => inOrder(entry as Record<string, unknown>, entries))
    )
      return false;
  }
  return true;
}
