import { MemError, isMemError, parseEvent, type ErrorCode, type LogEvent } from '@mem/core';

/** Where a line lives, for error messages and error details. */
export interface LineLocation {
  project: string;
  segment: string;
  /** The segment's path, as errors print it. */
  file: string;
  /** 1-based line number within the segment. */
  line: number;
}

// fatal: a line that is not UTF-8 is corrupt, not silently "repaired" into U+FFFD.
// ignoreBOM: keep a BOM in the text so JSON.parse rejects it instead of it vanishing.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A MemError pointing at one line: message prefixed with `file:line`, details carrying the location. */
export function lineError(
  code: ErrorCode,
  at: LineLocation,
  message: string,
  cause?: unknown,
): MemError {
  return new MemError(
    code,
    `${at.file}:${at.line}: ${message}`,
    { ...at },
    cause === undefined ? undefined : { cause },
  );
}

/**
 * Parses one log line (bytes without `\n`) into a validated event of `at.project`.
 * Throws LOG_CORRUPT (not UTF-8, not JSON, wrong project) or core's INVALID_EVENT,
 * UNKNOWN_EVENT_TYPE, SHA_MISMATCH — each naming file and line.
 */
export function decodeLine(bytes: Uint8Array, at: LineLocation): LogEvent {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch (error) {
    throw lineError('LOG_CORRUPT', at, 'not valid UTF-8', error);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw lineError('LOG_CORRUPT', at, `not JSON (${(error as Error).message})`, error);
  }
  let event: LogEvent;
  try {
    event = parseEvent(value, { file: at.file, line: at.line });
  } catch (error) {
    if (!isMemError(error)) throw error;
    throw new MemError(error.code, error.message, { ...error.details, ...at }, { cause: error });
  }
  if (event.project !== at.project) {
    throw lineError(
      'LOG_CORRUPT',
      at,
      `event belongs to project ${JSON.stringify(event.project)}, not ${JSON.stringify(at.project)}`,
    );
  }
  return event;
}

const SEQ_PREFIX = /^\{"seq":([1-9]\d{0,15}),/;

/**
 * The seq at the start of a line written by this log (serialisation puts it first), read without
 * parsing the line; null when the line does not start that way (the caller then parses it).
 */
export function peekSeq(bytes: Buffer): number | null {
  const match = SEQ_PREFIX.exec(bytes.toString('latin1', 0, Math.min(bytes.length, 26)));
  return match?.[1] ? Number(match[1]) : null;
}
