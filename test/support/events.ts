import {
  currentVersion,
  genesisHash,
  parseEvent,
  parsePayload,
  serializeEvent,
  sha256Hex,
  type LogEvent,
  type Payload,
  type Writer,
} from '@mem/core';

/** An event as projectors receive it: the parsed event and the sha256 of its exact line. */
export interface ChainedEvent {
  event: LogEvent;
  hash: string;
  line: string;
}

export interface ChainOptions {
  startSeq?: number;
  prev?: string;
  writer?: Writer;
  /** ts of the first event; each next event is one second later. */
  startTs?: string;
}

/**
 * Builds a valid hash-chained event sequence for `project` from payloads, exactly as the log
 * would write it (same serialisation, same `prev` rule), without touching the file system.
 * For tests of projectors and readers; the log package is the only real writer.
 */
export function chainEvents(
  project: string,
  payloads: readonly (Payload | Record<string, unknown>)[],
  options: ChainOptions = {},
): ChainedEvent[] {
  let seq = options.startSeq ?? 1;
  let prev = options.prev ?? genesisHash(project);
  let ts = Date.parse(options.startTs ?? '2026-08-17T09:00:00.000Z');
  const writer = options.writer ?? { kind: 'test' };
  const out: ChainedEvent[] = [];
  for (const raw of payloads) {
    const payload = parsePayload(raw);
    const version = currentVersion(payload.type);
    const event = parseEvent({
      seq,
      ts: new Date(ts).toISOString(),
      project,
      ...(version > 1 ? { v: version } : {}),
      writer,
      ...payload,
      prev,
    });
    const line = serializeEvent(event);
    const hash = sha256Hex(line);
    out.push({ event, hash, line });
    prev = hash;
    seq += 1;
    ts += 1000;
  }
  return out;
}
