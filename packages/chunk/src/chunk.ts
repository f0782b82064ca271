import type { PastedKind, RecordProvenance, RecordRole, SummarySection } from './record.js';

/** Which part of a split record's text a chunk holds. */
export interface RecordPart {
  /** [first, end) line indices (0-based) of the record's text that this part touches. */
  lines: [number, number];
  /** [start, end) UTF-16 offsets into the record's text. */
  chars: [number, number];
}

/** What a chunk keeps about each record in it. */
export interface ChunkRecord {
  /** 0-based position of the record among its source's records in this stream. */
  ordinal: number;
  role: RecordRole;
  timestamp: string | null;
  provenance: RecordProvenance;
  /** [start, end) UTF-16 offsets of the record's text (or its part) inside the chunk's text. */
  textRange: [number, number];
  /** Present only for a record too large for one chunk. */
  part?: RecordPart;
  /** The source record's summary sections, when it has them (extractors read them as typed evidence). */
  sections?: SummarySection[];
  /** The source record's paste kind, when its text was pasted rather than said. */
  pasted?: PastedKind;
}

/** One unit of input to the gate: whole records of one source, at most `maxTokens` tokens. */
export interface Chunk {
  /** 1-based step `t` within this stream. */
  index: number;
  /** The rendered blocks (see render.ts). */
  text: string;
  /** Exact token count of `text`. */
  tokens: number;
  /** Content identity: core `contentSha256(text)`. */
  sha256: string;
  /**
   * sha256 of `text`'s own UTF-8 bytes: unlike `sha256`, a change of letter case or whitespace
   * moves it, so grounding can tell a record rewritten in case only (source-grounding.ts).
   */
  bytesSha256: string;
  /** Provenance source URI shared by every record in the chunk. */
  source: string;
  /** [first, end) ordinals of the records the chunk completes within `source`; a piece of a split record before its last is [n, n]. */
  span: [number, number];
  records: ChunkRecord[];
  /** Present when the chunk holds one part of a record split across chunks (1-based part). */
  splitOf?: { part: number; parts: number };
}
