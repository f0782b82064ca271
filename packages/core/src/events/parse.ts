import type { z } from 'zod';
import { MemError } from '../errors.js';
import { contentSha256 } from '../identity.js';
import { scrubStrings } from '../scrub/strings.js';
import { EVENT_TYPES, eventDefinition, type LogEvent, type Payload } from './catalogue.js';

/** Where an input came from, so errors can name it: a file, a 1-based line. */
export interface InputLocation {
  file?: string;
  line?: number;
}

function where(location: InputLocation): string {
  const parts: string[] = [];
  if (location.file !== undefined) parts.push(location.file);
  if (location.line !== undefined) parts.push(`line ${location.line}`);
  return parts.length > 0 ? `${parts.join(':')}: ` : '';
}

function fieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    out += typeof key === 'number' ? `[${key}]` : out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

function describeIssue(issue: z.core.$ZodIssue, input: unknown): { field: string; problem: string } {
  const field = fieldPath(issue.path);
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((k) => JSON.stringify(k)).join(', ');
    return { field: field || '(event)', problem: `unexpected field${issue.keys.length > 1 ? 's' : ''} ${keys}` };
  }
  if (issue.code === 'invalid_type') {
    let value: unknown = input;
    for (const key of issue.path) value = value === null || typeof value !== 'object' ? undefined : (value as Record<PropertyKey, unknown>)[key];
    if (value === undefined) return { field, problem: `missing field, expected ${issue.expected}` };
    return { field, problem: `expected ${issue.expected}, got ${JSON.stringify(value)?.slice(0, 80)}` };
  }
  return { field: field || '(event)', problem: issue.message };
}

function checkContentSha(value: { type: string; text?: unknown; sha256?: unknown }, location: InputLocation, scrubbed: boolean): void {
  if (typeof value.text !== 'string' || typeof value.sha256 !== 'string') return;
  const expected = contentSha256(value.text);
  if (expected !== value.sha256) {
    const of = scrubbed ? 'sha256 of the normalised text after its secrets were scrubbed' : 'sha256 of the normalised text';
    throw new MemError(
      'SHA_MISMATCH',
      `${where(location)}${value.type}.sha256 does not match its text: expected ${expected} (${of}), got ${value.sha256}`,
      { ...location, type: value.type, field: 'sha256', expected, actual: value.sha256, ...(scrubbed ? { scrubbed: true } : {}) },
    );
  }
}

function parseWith(kind: 'payload' | 'event', raw: unknown, location: InputLocation): unknown {
  // Trigger: a writer's payload. Why: the log is the only source of truth and every projection
  // copies it, so a secret in any string (text, source, ingest_id, cwd, think) must stop here,
  // whoever the writer is. Outcome: strings are scrubbed before validation (errors never echo a
  // secret either) and content identity is checked on the scrubbed text. Logged events are
  // read as they are: rewriting them would break the hash chain.
  const input = kind === 'payload' ? scrubStrings(raw) : raw;
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw new MemError('INVALID_EVENT', `${where(location)}expected a JSON object`, { ...location });
  }
  const type = (input as { type?: unknown }).type;
  if (type === undefined) {
    throw new MemError('INVALID_EVENT', `${where(location)}field "type": missing field, expected one of ${EVENT_TYPES.join(', ')}`, {
      ...location,
      field: 'type',
    });
  }
  const definition = typeof type === 'string' ? eventDefinition(type) : undefined;
  if (!definition) {
    throw new MemError('UNKNOWN_EVENT_TYPE', `${where(location)}unknown event type ${JSON.stringify(type)}: expected one of ${EVENT_TYPES.join(', ')}`, {
      ...location,
      field: 'type',
      type,
    });
  }
  const result = definition[kind].safeParse(input);
  if (!result.success) {
    const issues = result.error.issues.map((issue) => describeIssue(issue, input));
    const first = issues[0] ?? { field: '(event)', problem: 'invalid' };
    throw new MemError('INVALID_EVENT', `${where(location)}${definition.type}.${first.field}: ${first.problem}`, {
      ...location,
      type: definition.type,
      field: first.field,
      issues,
    });
  }
  const text = (raw as { text?: unknown }).text;
  checkContentSha(result.data as { type: string }, location, text !== (input as { text?: unknown }).text);
  return result.data;
}

/** Validates what a writer wants appended. Throws INVALID_EVENT, UNKNOWN_EVENT_TYPE or SHA_MISMATCH. */
export function parsePayload(input: unknown, location: InputLocation = {}): Payload {
  return parseWith('payload', input, location) as Payload;
}

/** Validates a logged event (envelope included). Same errors as parsePayload. */
export function parseEvent(input: unknown, location: InputLocation = {}): LogEvent {
  return parseWith('event', input, location) as LogEvent;
}
