import { chunkPolicy, chunks, qwenTokenizer, type SourceRecord, type Tokenizer } from '@mem/chunk';
import { contentSha256, isMemError } from '@mem/core';
import type { StandingQueries } from '../standing-queries.js';
import { citedKey } from '../definitions.js';
import { transcriptSource } from '../transcripts.js';

/** One chunk a memory line cites, as the log recorded it at ingest. */
export interface CitedChunk {
  /** The record source the chunk came from (`claude:<session>`, `pi:<session>`). */
  source: string;
  /** The chunk's [start, end) record ordinals in its source (the chunk event's span). */
  start: number;
  end: number;
  /** The chunk's content sha at ingest (the evidence sha). */
  sha256: string;
  /** The sha256 of its bytes at ingest, where the chunk event recorded it (not in older logs). */
  bytesSha256?: string;
  /** The chunk size the run that read it packed to. */
  chunkTokens: number;
}

/** What became of a cited chunk: re-read the same, re-read different, or its source no longer there. */
export type Grounding = 'unchanged' | 'changed' | 'gone';

export { citedKey } from '../definitions.js';

/**
 * Re-reads the project's standing-query sources as they are now and re-chunks each cited
 * chunk's records (its span, nothing after it, with the size its run used): the packer is
 * greedy per source, so the chunk comes out again byte for byte unless a record in it changed
 * or went. Records after the span are not read, so a session that only grew is not stale; a
 * record split into parts yields several chunks of one span, so any of them matching counts. A source none of the project's sources yields now is gone (its session file
 * was deleted or moved out). Only sources of the kinds the project's standing queries read are
 * judged: a transcript posted over HTTP was never on this machine's disk, so it is left alone.
 */
export async function checkGrounding(
  config: StandingQueries,
  cited: readonly CitedChunk[],
  // The tokenizer ingest packs with (local-run.ts): another would cut other chunks.
  tokenizer: Tokenizer = qwenTokenizer(),
): Promise<Map<string, Grounding>> {
  const kinds = new Set(config.sources.map((s) => s.kind));
  const judged = cited.filter((c) => kinds.has(c.source.split(':', 1)[0] as never));
  const wanted = new Set(judged.map((c) => c.source));
  const records = new Map<string, SourceRecord[]>();
  for (const resolved of config.sources) {
    try {
      for await (const record of transcriptSource(resolved)) {
        const source = record.provenance.source;
        if (!wanted.has(source)) continue;
        const list = records.get(source) ?? [];
        list.push(record);
        records.set(source, list);
      }
    } catch (error) {
      // Trigger: a source directory no longer exists. Outcome: its sessions read as gone.
      if (!(isMemError(error) && error.code === 'NOT_FOUND')) throw error;
    }
  }
  const result = new Map<string, Grounding>();
  for (const chunk of judged) {
    const key = citedKey(chunk);
    if (result.has(key)) continue;
    result.set(key, await groundSpan(records.get(chunk.source), chunk, tokenizer));
  }
  return result;
}

/**
 * One cited chunk against its source's records as they read now (`own`, from ordinal 0, at
 * least up to the span's end when there are that many): re-chunked with the size its run used,
 * the span's records only. Undefined `own`: the source yields nothing now, so the chunk is gone.
 */
export async function groundSpan(
  own: readonly SourceRecord[] | undefined,
  chunk: CitedChunk,
  tokenizer: Tokenizer,
): Promise<Grounding> {
  if (own === undefined) return 'gone';
  // Fewer records than the span's end: the session was cut short, so the chunk changed.
  if (own.length < chunk.end) return 'changed';
  const policy = chunkPolicy({ maxTokens: chunk.chunkTokens });
  const from = new Map([[chunk.source, chunk.start]]);
  let same = false;
  // Trigger: the chunk event recorded its bytes' digest. Why: the content sha is of normalised
  // text, so a record rewritten in letter case or whitespace only re-chunks to the same one.
  // Outcome: the bytes are compared where they were recorded; an older log's content sha only.
  const recorded = chunk.bytesSha256;
  for await (const c of chunks(fromArray(own.slice(0, chunk.end)), policy, tokenizer, {
    skipBefore: from,
  }))
    same ||= recorded !== undefined ? c.bytesSha256 === recorded : c.sha256 === chunk.sha256;
  return same ? 'unchanged' : 'changed';
}

/**
 * What a cited chunk's span reads as now: the shas of the chunks its records pack into (the
 * run's size, the span only), joined and hashed; their byte digests where the chunk event
 * recorded its own (as groundSpan compares), so a confirmation holds off only those bytes. Equal to what it read as when a person
 * confirmed a line citing it exactly while no record of the span changed since; null when the
 * source yields nothing now, or fewer records than the span's end (gone or cut short).
 */
export async function spanDigest(
  own: readonly SourceRecord[] | undefined,
  chunk: CitedChunk,
  tokenizer: Tokenizer,
): Promise<string | null> {
  if (own === undefined || own.length < chunk.end) return null;
  const policy = chunkPolicy({ maxTokens: chunk.chunkTokens });
  const shas: string[] = [];
  for await (const c of chunks(fromArray(own.slice(0, chunk.end)), policy, tokenizer, {
    skipBefore: new Map([[chunk.source, chunk.start]]),
  }))
    shas.push(chunk.bytesSha256 !== undefined ? c.bytesSha256 : c.sha256);
  return contentSha256(shas.join(' '));
}

async function* fromArray(records: readonly SourceRecord[]): AsyncGenerator<SourceRecord> {
  yield* records;
}
