import { MemError, isMemError } from '../errors.js';
import { where, type InputLocation } from './location.js';

/** A logged event as read from a line, before validation: plain JSON. */
export type RawEvent = Record<string, unknown>;

/**
 * Turns an event of one version of its type into the next version: payload fields only (the
 * chain sets `v`). Pure: it sees one line and nothing else, so a rebuild stays a function of the log.
 */
export type Upcaster = (event: RawEvent) => RawEvent;

/** One step of the chain: `type` at version `from` becomes version `from + 1`. */
export interface UpcasterStep {
  type: string;
  from: number;
  upcast: Upcaster;
}

/** Reads a line's version: `v` absent is version 1; present, it is an integer >= 2. */
export function eventVersion(raw: RawEvent, location: InputLocation = {}): number {
  if (!('v' in raw)) return 1;
  const v = raw.v;
  if (typeof v === 'number' && Number.isInteger(v) && v >= 2) return v;
  // Version 1 is written without `v`, so one event has one byte form and old lines keep their hashes.
  throw new MemError(
    'INVALID_EVENT',
    `${where(location)}field "v": expected an integer >= 2 (version 1 is written without v), got ${JSON.stringify(v)?.slice(0, 40)}`,
    {
      ...location,
      field: 'v',
    },
  );
}

/**
 * Builds the read-time upcaster of a catalogue: `current` maps each type to its current
 * version, `steps` holds one upcaster per (type, from-version) below it. The answer brings a
 * raw event of an older version up to the current one (with `v` set, or absent at version 1);
 * it throws UNSUPPORTED_VERSION for a version newer than the catalogue knows. Its output is
 * not trusted: the caller validates it against the current schema like any other line.
 */
export function upcasterChain(
  current: ReadonlyMap<string, number>,
  steps: readonly UpcasterStep[],
) {
  const byKey = new Map<string, Upcaster>();
  for (const step of steps) {
    const latest = current.get(step.type);
    if (
      latest === undefined ||
      !Number.isInteger(step.from) ||
      step.from < 1 ||
      step.from >= latest
    ) {
      throw new MemError(
        'INVALID_INPUT',
        `upcaster ${step.type}@${step.from}: expected a known type and a version below its current one (${String(latest)})`,
        { type: step.type, from: step.from },
      );
    }
    const key = `${step.type}@${step.from}`;
    if (byKey.has(key))
      throw new MemError('INVALID_INPUT', `upcaster ${key} is registered twice`, {
        type: step.type,
        from: step.from,
      });
    byKey.set(key, step.upcast);
  }
  for (const [type, latest] of current) {
    for (let from = 1; from < latest; from++) {
      if (!byKey.has(`${type}@${from}`))
        throw new MemError(
          'INVALID_INPUT',
          `upcaster ${type}@${from} is missing: every version below the current one needs a step`,
          { type, from },
        );
    }
  }

  return function upcast(raw: RawEvent, location: InputLocation = {}): RawEvent {
    const type = raw.type;
    const latest = typeof type === 'string' ? current.get(type) : undefined;
    // An unknown type is the validator's to name; it has the list of known ones.
    if (latest === undefined) return raw;
    let version = eventVersion(raw, location);
    if (version > latest) {
      throw new MemError(
        'UNSUPPORTED_VERSION',
        `${where(location)}${type as string} version ${version} is newer than this mem reads (up to ${latest}): upgrade mem to read this log`,
        { ...location, field: 'v', type, version, supported: latest },
      );
    }
    if (version === latest) return raw;
    let event = withoutVersion(raw);
    while (version < latest) {
      try {
        event = withoutVersion(byKey.get(`${type as string}@${version}`)!(event));
      } catch (error) {
        if (!isMemError(error)) throw error;
        throw new MemError(
          error.code,
          `${where(location)}${type as string} version ${version}: ${error.message}`,
          { ...error.details, ...location, type, version },
          { cause: error },
        );
      }
      version += 1;
    }
    return latest === 1 ? event : withVersion(event, latest);
  };
}

function withoutVersion(raw: RawEvent): RawEvent {
  const rest = { ...raw };
  delete rest.v;
  return rest;
}

/**
 * `event` with `from` renamed `to` in the same place of its key order: the commonest step.
 * A line that already has `to` is not of the old version, whatever its `v` says: refused.
 */
export function renameField(event: RawEvent, from: string, to: string): RawEvent {
  if (to in event) {
    throw new MemError(
      'INVALID_EVENT',
      `unexpected field "${to}": this version names it "${from}"`,
      { field: to },
    );
  }
  const out: RawEvent = {};
  for (const [key, value] of Object.entries(event)) out[key === from ? to : key] = value;
  return out;
}

/** `v` goes right after `type`, where the catalogue's key order puts it. */
function withVersion(raw: RawEvent, v: number): RawEvent {
  const out: RawEvent = {};
  for (const [key, value] of Object.entries(raw)) {
    out[key] = value;
    if (key === 'type') out.v = v;
  }
  return out;
}
