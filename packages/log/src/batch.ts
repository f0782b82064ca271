import {
  MemError,
  currentVersion,
  parsePayload,
  serializeEvent,
  sha256Hex,
  writerSchema,
  type LogEvent,
  type Payload,
  type Writer,
} from '@mem/core';

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

/**
 * Validates a caller's batch before anything is touched: every payload against the catalogue
 * (errors name the 1-based position as `line`), then the writer. Recovery events are the log's own.
 */
export function validateBatch(
  payloads: readonly unknown[],
  writer: unknown,
): { payloads: Payload[]; writer: Writer } {
  if (!Array.isArray(payloads) || payloads.length === 0) {
    throw new MemError(
      'INVALID_INPUT',
      'nothing to append: expected a non-empty array of event payloads',
      { field: 'payloads' },
    );
  }
  const parsed = payloads.map((payload, index) => {
    const valid = parsePayload(payload, { line: index + 1 });
    if (valid.type === 'recovery') {
      throw new MemError(
        'INVALID_INPUT',
        `line ${index + 1}: recovery events are written by the log itself, never appended`,
        {
          line: index + 1,
          field: 'type',
          type: 'recovery',
        },
      );
    }
    return valid;
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
  return { payloads: parsed, writer: result.data };
}

/**
 * Assigns contiguous seqs and the `prev` chain after `head`. The payloads and the writer were
 * validated by validateBatch and the envelope is built from checked parts (a positive seq, an
 * ISO ts, a valid project, a sha256 `prev`), so the event is assembled without a second zod
 * pass; batch.unit.spec.ts proves it equals what parseEvent makes of the same input.
 */
export function chainBatch(
  project: string,
  head: ChainLink,
  entries: readonly BatchEntry[],
  ts: string,
): ChainedBatch {
  const events: LogEvent[] = [];
  const lines: string[] = [];
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
    const line = serializeEvent(event);
    hash = sha256Hex(line);
    events.push(event);
    lines.push(line);
  }
  lines.push('');
  return { events, bytes: Buffer.from(lines.join('\n'), 'utf8'), head: { seq, hash } };
}
