import {
  normalizeSignature,
  toolResultSignatures,
  type FailureSignature,
  type LineSignature,
} from '@mem/core';
import type { ChunkRecord } from './controller.js';

/** Signatures one line carries at most: a line states one failure, maybe with its echo. */
const MAX_PER_LINE = 4;

/** The failure signatures of a chunk's failing tool results, in record order, each once. */
export function chunkSignatures(records: readonly ChunkRecord[]): FailureSignature[] {
  const out = new Map<string, FailureSignature>();
  for (const record of records) {
    if (record.role !== 'tool_result') continue;
    for (const sig of toolResultSignatures(record.text))
      if (!out.has(sig.sigSha)) out.set(sig.sigSha, sig);
  }
  return [...out.values()];
}

/*
 * Which of a chunk's failures a new line is about. A line drawn from a failing result quotes
 * its error, whole or in part, maybe wrapped in prose ("npm install failed: ERESOLVE …"); the
 * same normalisation on both sides makes a quoted path or number compare equal. A line is
 * about a failure when it holds the signature whole, or most of its words (two thirds, and at
 * least three), or, when the line itself says something failed, two of the error's own words
 * (an identifier, a file name, a code: "Crash 'Invalid hex color' at hexToRgb" for
 * "Error: Invalid hex color: #000cc"), words every error shares left out. So an unrelated line
 * that shares a word or two never borrows a signature.
 */
export function signaturesOfLine(
  line: string,
  chunk: readonly FailureSignature[],
): LineSignature[] {
  if (chunk.length === 0) return [];
  const normalised = normalizeSignature(line);
  const lineWords = new Set(wordsOf(normalised));
  const failing = FAILURE_WORD.test(line);
  const out: LineSignature[] = [];
  for (const sig of chunk) {
    const words = wordsOf(sig.signature);
    const held = words.filter((w) => lineWords.has(w)).length;
    const own = words.filter((w) => w.length >= 4 && !COMMON.has(w) && lineWords.has(w)).length;
    const about =
      normalised.includes(sig.signature) ||
      (held >= 3 && held * 3 >= words.length * 2) ||
      (failing && own >= 2);
    if (!about) continue;
    out.push({ sig_sha: sig.sigSha, signature: sig.signature, tool: sig.tool });
    if (out.length === MAX_PER_LINE) break;
  }
  return out;
}

/** A line that says something went wrong. */
const FAILURE_WORD =
  /\b(?:error|errors|fail(?:s|ed|ing|ure)?|crash(?:es|ed)?|broke|broken|exception|panic|cannot|can't|couldn't|not found|missing|refused|denied|timed out|timeout|rejected|invalid)\b/i;

/** Words most error messages hold: sharing them says nothing about which error it is. */
const COMMON = new Set([
  'error',
  'errors',
  'failed',
  'fatal',
  'file',
  'such',
  'directory',
  'cannot',
  'could',
  'found',
  'does',
  'exist',
  'type',
  'with',
  'from',
  'that',
  'this',
  'command',
  'exited',
  'code',
  'module',
  'property',
  'argument',
  'expected',
  'unknown',
  'invalid',
  'missing',
]);

/** Lowercased words of three letters or more, placeholders left out. */
function wordsOf(text: string): string[] {
  return (
    text
      .replace(/<[a-z]+>/g, ' ')
      .toLowerCase()
      .match(/[\p{L}][\p{L}\p{N}_-]{2,}/gu) ?? []
  );
}
