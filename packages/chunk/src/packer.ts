import { MemError, contentSha256, sha256Hex } from '@mem/core';
import type { Chunk, ChunkRecord } from './chunk.js';
import { lineOf, lineStarts } from './lines.js';
import { assertChunkPolicy, type ChunkPolicy } from './policy.js';
import { RECORD_ROLES, type SourceRecord } from './record.js';
import { renderBlock } from './render.js';
import { splitRecordText } from './split-record.js';
import type { Tokenizer } from './tokenizer/tokenizer.js';

interface PendingBlock {
  text: string;
  tokens: number;
  meta: Omit<ChunkRecord, 'textRange'>;
  textStart: number;
  textLength: number;
}

const ROLES: ReadonlySet<string> = new Set(RECORD_ROLES);

/**
 * The pure packing state machine: records in, finished chunks out, no I/O and no clock.
 * `push` returns the chunks a record completes; `flush` returns the partial chunk, if any.
 * A chunk holds whole records of one source; a source change, or a record that would not
 * fit, closes it. A record that alone exceeds the budget becomes chunks of its own, one per
 * part (see split-record.ts).
 */
export class ChunkPacker {
  readonly #maxTokens: number;
  readonly #tokenizer: Tokenizer;
  readonly #ordinals = new Map<string, number>();
  readonly #skipBefore: ReadonlyMap<string, number>;
  #blocks: PendingBlock[] = [];
  #tokens = 0;
  #source: string | null = null;
  #firstOrdinal = 0;
  #emitted = 0;

  /**
   * `skipBefore`: per source, the first record ordinal to pack. Records before it are counted
   * (ordinals stay those of the whole source) but not packed: a transcript that grew since the
   * last ingest is chunked from where that ingest stopped, so its old tail is not re-chunked
   * into a new chunk and gated again.
   */
  constructor(
    policy: ChunkPolicy,
    tokenizer: Tokenizer,
    skipBefore: ReadonlyMap<string, number> = new Map(),
  ) {
    assertChunkPolicy(policy);
    this.#maxTokens = policy.maxTokens;
    this.#tokenizer = tokenizer;
    this.#skipBefore = skipBefore;
  }

  /** Tokens in the partial chunk. */
  get pendingTokens(): number {
    return this.#tokens;
  }

  /** Whether a partial chunk is waiting for more records or a flush. */
  get hasPending(): boolean {
    return this.#blocks.length > 0;
  }

  /** Adds one record; returns the chunks it completed (possibly none). */
  push(record: SourceRecord): Chunk[] {
    assertRecord(record);
    const source = record.provenance.source;
    const ordinal = this.#ordinals.get(source) ?? 0;
    this.#ordinals.set(source, ordinal + 1);
    if (ordinal < (this.#skipBefore.get(source) ?? 0)) return [];
    const out: Chunk[] = [];
    if (this.#source !== null && this.#source !== source) out.push(...this.flush());

    const meta = {
      ordinal,
      role: record.role,
      timestamp: record.timestamp,
      provenance: { ...record.provenance },
      ...(record.sections !== undefined ? { sections: record.sections } : {}),
      ...(record.pasted !== undefined ? { pasted: record.pasted } : {}),
    };
    const rendered = renderBlock(record.role, record.text);
    const tokens = this.#tokenizer.count(rendered.text);
    if (tokens > this.#maxTokens) {
      out.push(...this.flush(), ...this.#splitRecord(record, meta));
      return out;
    }
    if (this.#tokens + tokens > this.#maxTokens) out.push(...this.flush());
    if (this.#blocks.length === 0) {
      this.#source = source;
      this.#firstOrdinal = ordinal;
    }
    this.#blocks.push({
      text: rendered.text,
      tokens,
      meta,
      textStart: rendered.textStart,
      textLength: record.text.length,
    });
    this.#tokens += tokens;
    return out;
  }

  /** Closes the partial chunk, if any, and returns it. */
  flush(): Chunk[] {
    if (this.#blocks.length === 0) return [];
    const records: ChunkRecord[] = [];
    let offset = 0;
    for (const block of this.#blocks) {
      const start = offset + block.textStart;
      records.push({ ...block.meta, textRange: [start, start + block.textLength] });
      offset += block.text.length;
    }
    const text = this.#blocks.map((b) => b.text).join('');
    // Sum of block counts == count(text): blocks meet at "\n" + "[" (see render.ts).
    const chunk = this.#chunk(
      text,
      this.#tokens,
      this.#source as string,
      [this.#firstOrdinal, this.#firstOrdinal + this.#blocks.length],
      records,
    );
    this.#blocks = [];
    this.#tokens = 0;
    this.#source = null;
    return [chunk];
  }

  #splitRecord(record: SourceRecord, meta: Omit<ChunkRecord, 'textRange'>): Chunk[] {
    const slices = splitRecordText(record.role, record.text, this.#maxTokens, this.#tokenizer);
    const starts = lineStarts(record.text);
    const source = record.provenance.source;
    return slices.map((slice, i) => {
      const lastChar = Math.max(slice.start, slice.end - 1);
      const part = {
        lines: [lineOf(starts, slice.start), lineOf(starts, lastChar) + 1] as [number, number],
        chars: [slice.start, slice.end] as [number, number],
      };
      const textRange: [number, number] = [
        slice.block.textStart,
        slice.block.textStart + (slice.end - slice.start),
      ];
      // Only the last piece completes the record: the pieces before it span [n, n], so a run
      // stopped between two pieces (a full disk, a crash) leaves the record unread in the
      // chunk progress and the rerun splits it again (its gated pieces are skipped by sha)
      // instead of skipping the pieces it never gated.
      const end = i === slices.length - 1 ? meta.ordinal + 1 : meta.ordinal;
      const chunk = this.#chunk(
        slice.block.text,
        slice.tokens,
        source,
        [meta.ordinal, end],
        [{ ...meta, provenance: { ...meta.provenance }, textRange, part }],
      );
      chunk.splitOf = { part: i + 1, parts: slices.length };
      return chunk;
    });
  }

  #chunk(
    text: string,
    tokens: number,
    source: string,
    span: [number, number],
    records: ChunkRecord[],
  ): Chunk {
    this.#emitted += 1;
    return {
      index: this.#emitted,
      text,
      tokens,
      sha256: contentSha256(text),
      bytesSha256: sha256Hex(text),
      source,
      span,
      records,
    };
  }
}

/** Packs a finite list of records: every chunk, the last partial one included. */
export function packRecords(
  records: Iterable<SourceRecord>,
  policy: ChunkPolicy,
  tokenizer: Tokenizer,
): Chunk[] {
  const packer = new ChunkPacker(policy, tokenizer);
  const out: Chunk[] = [];
  for (const record of records) out.push(...packer.push(record));
  out.push(...packer.flush());
  return out;
}

function assertRecord(record: SourceRecord): void {
  const r = record as Partial<SourceRecord> | null | undefined;
  const fail = (field: string, expected: string): never => {
    throw new MemError('INVALID_INPUT', `record ${field} must be ${expected}`, { field, expected });
  };
  if (typeof r !== 'object' || r === null) fail('record', 'an object');
  if (typeof r?.role !== 'string' || !ROLES.has(r.role))
    fail('role', `one of ${RECORD_ROLES.join(', ')}`);
  if (typeof r?.text !== 'string') fail('text', 'a string');
  if (typeof r?.provenance?.source !== 'string' || r.provenance.source.length === 0)
    fail('provenance.source', 'a non-empty source URI');
  if (r?.timestamp !== null && typeof r?.timestamp !== 'string')
    fail('timestamp', 'an ISO-8601 string or null');
}
