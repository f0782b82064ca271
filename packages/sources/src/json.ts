/** A parsed JSON object (not null, not an array). */
export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value if it is a string, else undefined. */
export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The value if it is a finite number, else undefined. */
export function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** The value if it is an array, else an empty one. */
export function arr(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

const ISO_PREFIX = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/u;

/**
 * An ISO-8601 timestamp from a string (kept as written) or an epoch number (ms, or seconds when
 * small enough to be seconds); undefined for anything else.
 */
export function timestampOf(value: unknown): string | undefined {
  if (typeof value === 'string') return ISO_PREFIX.test(value) ? value : undefined;
  const n = num(value);
  if (n === undefined || n <= 0) return undefined;
  const ms = n < 1e11 ? n * 1000 : n;
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** Compact JSON for a tool's input; never throws (cycles cannot come from JSON.parse anyway). */
export function compactJson(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- what JSON.stringify refuses (a bigint) still prints
    return String(value);
  }
}
