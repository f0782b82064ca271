import type { z } from 'zod';
import { MemError } from '../errors.js';
import { contentSha256 } from '../identity.js';
import { scrubStrings } from '../scrub/strings.js';
import { EVENT_TYPES, eventDefinition, type LogEvent, type Payload } from './catalogue.js';
import { where, type InputLocation } from './location.js';
import { hasPurgeMarker } from './purge-payloads.js';
import type { RawEvent } from './upcast.js';
import { upcastEvent } from './versions.js';
import { issueField, issueValue } from '../zod-issues.js';

export type { InputLocation } from './location.js';

function describeIssue(
  issue: z.core.$ZodIssue,
  input: unknown,
): { field: string; problem: string } {
  const field = issueField(issue.path);
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((k) => JSON.stringify(k)).join(', ');
    return {
      field: field || '(event)',
      problem: `unexpected field${issue.keys.length > 1 ? 's' : ''} ${keys}`,
    };
  }
  if (issue.code === 'invalid_type') {
    const value = issueValue(input, issue.path);
    if (value === undefined) return { field, problem: `missing field, expected ${issue.expected}` };
    return {
      field,
      problem: `expected ${issue.expected}, got ${JSON.stringify(value)?.slice(0, 80)}`,
    };
  }
  return { field: field || '(event)', problem: issue.message };
}

function checkContentSha(
  kind: 'payload' | 'event',
  value: { type: string; text?: unknown; sha256?: unknown },
  location: InputLocation,
  scrubbed: boolean,
): void {
  if (typeof value.text !== 'string' || typeof value.sha256 !== 'string') return;
  // Trigger: a logged line a purge rewrote. Why: its sha is the identity others cite, kept
  // through the purge; the text it hashed is gone. Outcome: not checked here; the chain walk
  // accepts the line only where a later `purged` event names it. A writer's payload never skips.
  if (kind === 'event' && hasPurgeMarker(value.text)) return;
  const expected = contentSha256(value.text);
  if (expected !== value.sha256) {
    const of = scrubbed
      ? 'sha256 of the normalised text after its secrets were scrubbed'
      : 'sha256 of the normalised text';
    throw new MemError(
      'SHA_MISMATCH',
      `${where(location)}${value.type}.sha256 does not match its text: expected ${expected} (${of}), got ${value.sha256}`,
      {
        ...location,
        type: value.type,
        field: 'sha256',
        expected,
        actual: value.sha256,
        ...(scrubbed ? { scrubbed: true } : {}),
      },
    );
  }
}

/**
 * Trigger: a writer's payload whose text holds a purge marker. Why: the content-sha checks skip
 * marked text of logged lines (a purge keeps the sha that lines are cited by), so a marker in a
 * new payload would carry any sha past them; only a purge writes one, into lines it rewrites.
 * Outcome: INVALID_EVENT naming the field, before anything else is checked.
 */
function refuseMarker(type: string, input: object, location: InputLocation): void {
  const text = (input as { text?: unknown }).text;
  if (typeof text !== 'string' || !hasPurgeMarker(text)) return;
  throw new MemError(
    'INVALID_EVENT',
    `${where(location)}${type}.text: holds a purge marker ("[purged sha256:…]"); only \`mem purge\` writes one, into the lines it rewrites`,
    { ...location, type, field: 'text' },
  );
}

function parseWith(kind: 'payload' | 'event', raw: unknown, location: InputLocation): unknown {
  // Trigger: a writer's payload. Why: the log is the only source of truth and every projection
  // copies it, so a secret in any string (text, source, ingest_id, cwd, think) must stop here,
  // whoever the writer is. Outcome: strings are scrubbed before validation (errors never echo a
  // secret either) and content identity is checked on the scrubbed text. Logged events are
  // read as they are: rewriting them would break the hash chain.
  const given = kind === 'payload' ? scrubStrings(raw) : raw;
  if (given === null || typeof given !== 'object' || Array.isArray(given)) {
    throw new MemError('INVALID_EVENT', `${where(location)}expected a JSON object`, {
      ...location,
    });
  }
  // A logged line of an older version is brought to the current one first, and what the
  // upcasters made of it is then validated like any line: an upcaster is not trusted either.
  // Payloads carry no version: a writer always writes the current one.
  const input = kind === 'event' ? upcastEvent(given as RawEvent, location) : given;
  const type = (input as { type?: unknown }).type;
  if (type === undefined) {
    throw new MemError(
      'INVALID_EVENT',
      `${where(location)}field "type": missing field, expected one of ${EVENT_TYPES.join(', ')}`,
      {
        ...location,
        field: 'type',
      },
    );
  }
  const definition = typeof type === 'string' ? eventDefinition(type) : undefined;
  if (!definition) {
    throw new MemError(
      'UNKNOWN_EVENT_TYPE',
      `${where(location)}unknown event type ${JSON.stringify(type)}: expected one of ${EVENT_TYPES.join(', ')}`,
      {
        ...location,
        field: 'type',
        type,
      },
    );
  }
  if (kind === 'payload') refuseMarker(definition.type, input, location);
  const result = definition[kind].safeParse(input);
  if (!result.success) {
    const issues = result.error.issues.map((issue) => describeIssue(issue, input));
    const first = issues[0] ?? { field: '(event)', problem: 'invalid' };
    throw new MemError(
      'INVALID_EVENT',
      `${where(location)}${definition.type}.${first.field}: ${first.problem}`,
      {
        ...location,
        type: definition.type,
        field: first.field,
        issues,
      },
    );
  }
  const text = (raw as { text?: unknown }).text;
  checkContentSha(kind, result.data, location, text !== (given as { text?: unknown }).text);
  return result.data;
}

/** Validates what a writer wants appended. Throws INVALID_EVENT, UNKNOWN_EVENT_TYPE or SHA_MISMATCH. */
export function parsePayload(input: unknown, location: InputLocation = {}): Payload {
  return parseWith('payload', input, location) as Payload;
}

/**
 * Validates a logged event (envelope included), upcast to its type's current version first.
 * Same errors as parsePayload, and UNSUPPORTED_VERSION for a version newer than the catalogue.
 */
export function parseEvent(input: unknown, location: InputLocation = {}): LogEvent {
  return parseWith('event', input, location) as LogEvent;
}
