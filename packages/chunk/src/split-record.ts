import { MemError } from '@mem/core';
import type { RecordRole } from './record.js';
import { renderBlock, type RenderedBlock } from './render.js';
import type { Tokenizer } from './tokenizer/tokenizer.js';

/** One part of a record that alone exceeds the budget. */
export interface RecordSlice {
  /** [start, end) UTF-16 offsets into the record's text. */
  start: number;
  end: number;
  block: RenderedBlock;
  tokens: number;
}

// A cut inside a line is placed before a run of spaces or tabs, and at least this often.
const MAX_UNIT_CHARS = 256;

/**
 * Splits a record's text into parts whose rendered blocks each fit `maxTokens`: on line
 * boundaries; a line too long for one part is cut before a run of blanks or, failing that,
 * every 256 characters; a piece still too long is cut at the last code point that fits.
 *
 * Sizing is guided by per-unit counts (one count per line) and decided by exact counts of the
 * rendered part, so a part never exceeds the budget whatever the tokenizer merges across a cut.
 */
export function splitRecordText(
  role: RecordRole,
  text: string,
  maxTokens: number,
  tokenizer: Tokenizer,
): RecordSlice[] {
  const cuts = unitCuts(text, maxTokens, tokenizer);
  const unitTokens: number[] = [];
  for (let k = 0; k + 1 < cuts.length; k++)
    unitTokens.push(tokenizer.count(text.slice(cuts[k], cuts[k + 1])));

  const slices: RecordSlice[] = [];
  let u = 0;
  while (u + 1 < cuts.length) {
    const continued = slices.length > 0;
    const render = (v: number): RenderedBlock =>
      renderBlock(role, text.slice(cuts[u], cuts[v]), continued);
    const measured = new Map<number, { block: RenderedBlock; tokens: number }>();
    const measure = (v: number): { block: RenderedBlock; tokens: number } => {
      let m = measured.get(v);
      if (m === undefined) {
        const block = render(v);
        m = { block, tokens: tokenizer.count(block.text) };
        measured.set(v, m);
      }
      return m;
    };
    const fits = (v: number): boolean => measure(v).tokens <= maxTokens;

    // Grow past a part that fits only while its exact count leaves room for the next unit by
    // estimate: one exact count per part in the common case.
    const roomFor = (v: number): boolean =>
      measure(v).tokens + (unitTokens[v] ?? Infinity) <= maxTokens;
    const guess = estimateEnd(
      u,
      cuts.length - 1,
      unitTokens,
      tokenizer.count(render(u).text),
      maxTokens,
    );
    let v = largestFitting(u, guess, cuts.length - 1, fits, roomFor);
    if (v === u) {
      // Trigger: one unit alone does not fit. Outcome: cut it at the last code point that does.
      const cut = largestFittingPrefix(
        text,
        cuts[u] as number,
        cuts[u + 1] as number,
        (end) =>
          tokenizer.count(renderBlock(role, text.slice(cuts[u], end), continued).text) <= maxTokens,
      );
      cuts.splice(u + 1, 0, cut);
      unitTokens.splice(
        u,
        1,
        tokenizer.count(text.slice(cuts[u], cut)),
        tokenizer.count(text.slice(cut, cuts[u + 2])),
      );
      measured.clear();
      v = u + 1;
    }
    const { block, tokens } = measure(v);
    slices.push({ start: cuts[u] as number, end: cuts[v] as number, block, tokens });
    u = v;
  }
  return slices;
}

/** Candidate cut offsets: 0, each line end, sub-cuts inside long lines, and text.length. */
function unitCuts(text: string, maxTokens: number, tokenizer: Tokenizer): number[] {
  const cuts = [0];
  let start = 0;
  while (start < text.length) {
    const newline = text.indexOf('\n', start);
    const end = newline < 0 ? text.length : newline + 1;
    if (end - start > MAX_UNIT_CHARS && tokenizer.count(text.slice(start, end)) > maxTokens / 2) {
      for (const cut of cutsInsideLine(text, start, end)) cuts.push(cut);
    }
    cuts.push(end);
    start = end;
  }
  return cuts;
}

/** Offsets strictly inside [start, end): before each run of blanks, and every MAX_UNIT_CHARS. */
function cutsInsideLine(text: string, start: number, end: number): number[] {
  const cuts: number[] = [];
  let last = start;
  for (let i = start + 1; i < end; i++) {
    const c = text.charCodeAt(i);
    const blankRunStarts =
      (c === 0x20 || c === 0x09) &&
      text.charCodeAt(i - 1) !== 0x20 &&
      text.charCodeAt(i - 1) !== 0x09;
    if (blankRunStarts || (i - last >= MAX_UNIT_CHARS && !isLowSurrogate(c))) {
      cuts.push(i);
      last = i;
    }
  }
  return cuts;
}

/** The furthest unit end the per-unit counts suggest, at least one unit. */
function estimateEnd(
  u: number,
  last: number,
  unitTokens: readonly number[],
  overhead: number,
  maxTokens: number,
): number {
  let v = u + 1;
  let estimate = overhead + (unitTokens[u] as number);
  while (v < last && estimate + (unitTokens[v] as number) <= maxTokens) {
    estimate += unitTokens[v] as number;
    v += 1;
  }
  return v;
}

/**
 * A large v in (u, last] with fits(v), searching from the estimate `guess`: bisect down when
 * the guess does not fit; gallop up while `roomFor` says the next unit may still fit. Returns
 * u when not even one unit fits. Token counts of growing prefixes are monotone in practice;
 * the result is verified by `fits` either way.
 */
function largestFitting(
  u: number,
  guess: number,
  last: number,
  fits: (v: number) => boolean,
  roomFor: (v: number) => boolean,
): number {
  let lo: number; // fits (or u)
  let hi: number; // does not fit (or last + 1)
  if (fits(guess)) {
    lo = guess;
    if (lo === last || !roomFor(lo)) return lo;
    let step = 1;
    hi = lo + step;
    while (hi <= last && fits(hi)) {
      lo = hi;
      step *= 2;
      hi = lo + step;
    }
    hi = Math.min(hi, last + 1);
  } else {
    lo = u;
    hi = guess;
  }
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** Largest end in (start, end) at a code point boundary with fits(end); throws if none. */
function largestFittingPrefix(
  text: string,
  start: number,
  end: number,
  fits: (end: number) => boolean,
): number {
  const ends: number[] = [];
  for (let i = start + 1; i < end; i++) if (!isLowSurrogate(text.charCodeAt(i))) ends.push(i);
  let lo = -1; // index into ends of the longest prefix known to fit
  let hi = ends.length; // index known not to fit (the whole unit)
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (fits(ends[mid] as number)) lo = mid;
    else hi = mid;
  }
  if (lo < 0) {
    throw new MemError(
      'INVALID_INPUT',
      'chunk budget is too small to hold a single character of this record with its header',
      {
        field: 'maxTokens',
        offset: start,
      },
    );
  }
  return ends[lo] as number;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}
