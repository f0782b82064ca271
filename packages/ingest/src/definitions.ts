import type { CitedChunk } from './grounding/source-grounding.js';

/*
 * What the definition of an operation or a command needs of ingest before it runs: names,
 * limits and keys. A module importing nothing at run time (`@mem/ingest/definitions`), so that
 * a command tree holding the ingest operations loads neither the gated loop, the sources, the
 * chunker nor the job runner until one of them runs (issue 15, a cold CLI start).
 */

/** The gate controllers `mem ingest --controller` may name. */
export const CONTROLLERS = ['heuristic', 'openai'] as const;
export type ControllerName = (typeof CONTROLLERS)[number];

/** The most records one job may carry (a bounded event, a bounded job). */
export const MAX_RECORDS = 20_000;

export { TRANSCRIPT_KINDS as SOURCE_KINDS } from '@mem/sources/kinds';

/**
 * The key a cited chunk's grounding is reported (and cached) under. The byte digest is part of
 * it since chunks record one (stop 35): two chunks of one span with the same normalised content
 * but different bytes (read before and after a case-only rewrite, or one from an older log
 * without a byte digest) are judged apart, not given each other's verdict.
 */
export const citedKey = (c: Omit<CitedChunk, 'chunkTokens'>) =>
  `${c.source}@${c.start}-${c.end}:${c.sha256}${c.bytesSha256 === undefined ? '' : `/${c.bytesSha256}`}`;
