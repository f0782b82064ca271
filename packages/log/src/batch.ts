import {
  MemError,
  currentVersion,
  parsePayload,
  serializeEvent,
  sha256Hex,
  writerSchema,
  type InputLocation,
  type LogEvent,
  type Payload,
  type Writer,
} from '@mem/core';
import { LineBuffer } from './line-buffer.js';

/** The end of a chain: the last seq and the sha256 of its line (seq 0 and the genesis hash when empty). */
export interface ChainLink {
  seq: number;
  hash: string;
}

/** One event to chain: what to write and who wrote it. */
export interface BatchEntry {
  payload: Payload;
  writer: Writer;
}

/** A chained batch, ready for one write call. */
export interface ChainedBatch {
  events: LogEvent[];
  /** Every line, each followed by `\n`, as one buffer. */
  bytes: Buffer;
  head: ChainLink;
}

/** The writer the log signs its own `recovery` events with. */
export const LOG_WRITER: Writer = { kind: 'log' };

/** A batch validateBatch checked: its payloads (scrubbed, as zod made them) and its writer. */
export interface ValidBatch {
  readonly payloads: readonly Payload[];
  readonly writer: Writer;
}

/** Where a payload of a batch came from, for errors (default: its 1-based position as `line`). */
export type LocatePayload = (index: number) => InputLocation;

/**
 * The batches validateBatch made. Why: a caller that checks a batch before appending it (the
 * engine's provenance and tombstone checks) hands the same batch to the log, which then skips a
 * second validation; membership here, not the shape, is what proves it was validated.
 */
const validated = new WeakSet<ValidBatch>();

/** Whether `value` is a batch validateBatch made (and so needs no second validation). */
export function isValidBatch(value: unknown): value is ValidBatch {
  return typeof value === 'object' && value !== null && validated.has(value as ValidBatch);
}

/** The refusal of a batch that claims to be validated but was not made by validateBatch. */
export function notValidated(): MemError {
  return new MemError(
    'INVALID_INPUT',
    'expected a batch made by validateBatch (append raw payloads with append instead)',
    { field: 'payloads' },
  );
}

/** `file:line N: `, as parse errors prefix their messages. */
function prefix(at: InputLocation): string {
  const file = at.file !== undefined ? `${at.file}:` : '';
  return at.line !== undefined ? `${file}line ${at.line}: ` : file === '' ? '' : `${file} `;
}

/**
 * Validates a caller's batch before anything is touched: every payload against the catalogue
 * (errors name the 1-based position as `line`, or where `locate` says it came from), then the
 * writer. Recovery events are the log's own. The result is frozen, payloads included, so that
 * what was checked is what gets written.
 */
export function validateBatch(
  payloads: readonly unknown[],
  writer: unknown,
  locate: LocatePayload = (index) => ({ line: index + 1 }),
): ValidBatch {
  if (!Array.isArray(payloads) || payloads.length === 0) {
    throw new MemError(
      'INVALID_INPUT',
      'nothing to append: expected a non-empty array of event payloads',
      { field: 'payloads' },
    );
  }
  const parsed = payloads.map((payload, index) => {
    const at = locate(index);
    const valid = parsePayload(payload, at);
    if (valid.type === 'recovery') {
      throw new MemError(
        'INVALID_INPUT',
        `${prefix(at)}recovery events are written by the log itself, never appended`,
        { ...at, field: 'type', type: 'recovery' },
      );
    }
    return Object.freeze(valid);
  });
  const result = writerSchema.safeParse(writer);
  if (!result.success) {
    const issue = result.error.issues[0];
    const field = ['writer', ...(issue?.path ?? []).map(String)].join('.');
    throw new MemError(
      'INVALID_INPUT',
      `${field}: ${issue?.message ?? 'invalid'}; expected {kind, principal?, token?}`,
      { field },
    );
  }
  const batch = Object.freeze({
    payloads: Object.freeze(parsed),
    writer: Object.freeze(result.data),
  });
  validated.add(batch);
  return batch;
}

/**
 * `batch` with `more` payloads after it (the engine's `resurfaced` and `idempotency_recorded`
 * events), only those validated; they are numbered after the batch's own.
 */
export function extendBatch(batch: ValidBatch, more: readonly unknown[]): ValidBatch {
  if (!isValidBatch(batch)) throw notValidated();
  if (more.length === 0) return batch;
  const offset = batch.payloads.length;
  const extra = validateBatch(more, batch.writer, (index) => ({ line: offset + index + 1 }));
  const joined = Object.freeze({
    payloads: Object.freeze([...batch.payloads, ...extra.payloads]),
    writer: batch.writer,
  });
  validated.add(joined);
  return joined;
}

/** Room to start a line buffer with for `events` events: most lines are shorter. */
export function lineBufferFor(events: number): LineBuffer {
  return new LineBuffer(events * 512);
}

/**
 * Assigns contiguous seqs and the `prev` chain after `head`. The payloads and the writer were
 * validated by validateBatch and the envelope is built from checked parts (a positive seq, an
 * ISO ts, a valid project, a sha256 `prev`), so the event is assembled without a second zod
 * pass; batch.unit.spec.ts proves it equals what parseEvent makes of the same input. `out`: the
 * buffer a group commit's batches share (no per-batch buffer, no join before the write); the
 * batch's `bytes` are its own lines of it.
 */
export function chainBatch(
  project: string,
  head: ChainLink,
  entries: readonly BatchEntry[],
  ts: string,
  out: LineBuffer = lineBufferFor(entries.length),
): ChainedBatch {
  const events: LogEvent[] = [];
  const start = out.length;
  let { seq, hash } = head;
  for (const { payload, writer } of entries) {
    seq += 1;
    // Key order is the catalogue's (envelope head, type, v, writer, payload, prev), so
    // serializeEvent takes its fast path. A writer writes its type's current version: `v` from
    // version 2 on, none at version 1 (the form every line before versions has).
    const { type, ...fields } = payload;
    const version = currentVersion(type);
    const event = {
      seq,
      ts,
      project,
      type,
      ...(version > 1 ? { v: version } : {}),
      writer,
      ...fields,
      prev: hash,
    } as LogEvent;
    // Serialised once and encoded once: the bytes hashed are the bytes written.
    hash = sha256Hex(out.push(serializeEvent(event)));
    events.push(event);
  }
  return { events, bytes: out.bytes().subarray(start), head: { seq, hash } };
}
