import type { LogEvent, Writer } from '@mem/core';

/** Where a project's journals live and how they rotate. */
export interface EventLogOptions {
  /** The log directory of a data root: `<root>/log`. One sub-directory per project. */
  dir: string;
  /** Rotate into a new segment once the current one would exceed this many bytes. Default 64 MiB. */
  segmentBytes?: number;
  /** Clock for the informational `ts` of new events. Default: the system clock. */
  now?: () => Date;
  /**
   * Makes an appended segment's bytes durable. Default: the real fsync. For tests that count
   * or delay fsyncs; a hook must still call the real one, or acknowledged events are not durable.
   */
  fsync?: (fd: number) => Promise<void>;
}

/** What an acknowledged (fsynced) append wrote. */
export interface AppendResult {
  project: string;
  /** Number of the caller's events appended (a `recovery` event written first is not counted). */
  appended: number;
  first_seq: number;
  last_seq: number;
  /** Every event written, in order, including a leading `recovery` event when a torn tail was repaired. */
  events: LogEvent[];
}

/** One event as read back, with where it lives and the sha256 of its exact line bytes. */
export interface LoggedEvent {
  event: LogEvent;
  /** sha256 hex of the line's bytes, without the trailing `\n`: the next line's `prev`. */
  hash: string;
  /** Segment file name, e.g. `000001.jsonl`. */
  segment: string;
  /** 1-based line number within the segment. */
  line: number;
}

/** The end of a project's chain: seq 0 and the genesis hash when the project has no events. */
export interface LogHead {
  seq: number;
  hash: string;
}

export interface ReadOptions {
  /** First seq to yield (default 1). Earlier segments are skipped without being parsed. */
  fromSeq?: number;
  /**
   * The `prev` the event at `fromSeq` must carry: a caller's stored chain head. When given and
   * the log disagrees, the read throws CHAIN_BROKEN instead of yielding (the log was replaced).
   */
  prev?: string;
}

/** Where a project's log ends: its head and the newest segment's count of complete lines. */
export interface LogTail {
  head: LogHead;
  /** The newest segment, or null when the project has no journal. */
  segment: string | null;
  /** Complete lines of `segment` (a torn trailing line is not counted). */
  lines: number;
}

/** A trailing line without `\n` at the very end of the log: torn by a crash, or still being written. */
export interface TornTail {
  segment: string;
  bytes: number;
}

/** Every way a chain can stop being valid: one list, for the verifier and for schemas of its report. */
export const CHAIN_BREAK_CODES = [
  'CHAIN_BROKEN',
  'LOG_CORRUPT',
  'INVALID_EVENT',
  'UNKNOWN_EVENT_TYPE',
  'UNSUPPORTED_VERSION',
  'SHA_MISMATCH',
] as const;

/** The first place a chain stops being valid. */
export interface ChainBreak {
  project: string;
  segment: string;
  line: number;
  code: (typeof CHAIN_BREAK_CODES)[number];
  message: string;
}

export interface VerifyResult {
  project: string;
  ok: boolean;
  /** Valid events walked before the first break (all of them when ok). */
  events: number;
  segments: number;
  head: LogHead;
  break?: ChainBreak;
  /** Present when the log ends in a line without `\n`; not a break (the next append repairs it). */
  torn_tail?: TornTail;
}

export type { Writer };
