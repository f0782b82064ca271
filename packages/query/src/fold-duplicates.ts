import { lineTokens, nearDuplicateTokens } from '@mem/core';

/*
 * Issue 13 §5, seed 004: duplicates folded with their lineage. Hits that say one thing (the
 * same finding in two notes, the L2 synthesis's `[query] ` copy of an L1 line, a fact promoted
 * from a line) take one place on a page: the best-ranked stands for them, the others ride on
 * it as its `folded` list. "The same thing" is core's near-duplicate rule, the one the
 * synthesis folds by (near-duplicate.ts), or an item's `from_line` naming the line.
 */

/** What the fold reads of a row. */
export interface FoldInput {
  kind: string;
  project: string;
  level: string;
  sha256: string;
  text: string;
  /** A promoted item's line (item_added.from_line); null for anything else. */
  fromLine: { sha256: string; level: string } | null;
}

/** Why a row folded into the one that stands for it. */
export type FoldReason = 'near_duplicate' | 'promoted_from';

/** A page row and the rows that folded into it, each with its place in the unfolded order (1-based) and why. */
export interface FoldedRow<T> {
  row: T;
  folded: { row: T; rank: number; reason: FoldReason }[];
}

/** Only memory lines and curated items fold: a chunk or a manual passage is evidence, not a finding. */
const FOLDABLE = new Set(['line', 'item']);

/**
 * The page of `limit` distinct rows out of `rows` (given in answer order): each row that says
 * what an earlier page row says folds into it, and the page is refilled from further down, so
 * `limit` counts distinct results. Rows past the page that repeat a page row fold too, so a
 * lineage names every recalled copy. Never across projects. Compared with the row standing for
 * the group only (near-duplicate is not transitive), so the result is one pass, deterministic.
 */
export function foldPage<T>(
  rows: readonly T[],
  inputOf: (row: T) => FoldInput,
  limit: number,
  store?: FoldStoreMark,
): FoldedRow<T>[] {
  if (store) keepFor(store);
  const page: { out: FoldedRow<T>; input: FoldInput; tokens: ReadonlySet<string> }[] = [];
  rows.forEach((row, index) => {
    const input = inputOf(row);
    const foldable = FOLDABLE.has(input.kind);
    const tokens = foldable ? tokensOf(input.text) : NO_TOKENS;
    if (foldable)
      for (const held of page) {
        const reason = foldReason(held.input, held.tokens, input, tokens);
        if (reason === null) continue;
        held.out.folded.push({ row, rank: index + 1, reason });
        return;
      }
    if (page.length < limit) page.push({ out: { row, folded: [] }, input, tokens });
  });
  return page.map((p) => p.out);
}

const NO_TOKENS: ReadonlySet<string> = new Set();

/**
 * The store a page was read from and its change mark (ItemStore.changeMark). The kept tokens
 * and pairs hold the texts of the rows folded: they are dropped whenever the store or its mark
 * moves, so a forgotten or purged line's words leave the process with the next query after its
 * tombstone is projected, as the keyword reader's tables do.
 */
export interface FoldStoreMark {
  store: object;
  mark: number;
}

let keptFor: FoldStoreMark | null = null;

function keepFor(store: FoldStoreMark): void {
  if (keptFor?.store === store.store && keptFor.mark === store.mark) return;
  keptTokens.clear();
  keptPairs.clear();
  pairsKept = 0;
  keptFor = { store: store.store, mark: store.mark };
}

/** How many texts' tokens are kept from one page to the next. */
export const FOLD_TOKENS_KEPT = 4096;
const keptTokens = new Map<string, ReadonlySet<string>>();

/**
 * lineTokens of a text, kept between pages. Trigger: every query tokenises each row it folds,
 * and the same lines answer query after query (8 % of a query's CPU on the demo). The text is
 * its own key, so a kept entry is never out of date; past FOLD_TOKENS_KEPT texts the oldest
 * leaves first. The kept sets are shared: read, never changed.
 */
export function tokensOf(text: string): ReadonlySet<string> {
  let tokens = keptTokens.get(text);
  if (tokens === undefined) {
    tokens = lineTokens(text);
    if (keptTokens.size >= FOLD_TOKENS_KEPT) keptTokens.delete(keptTokens.keys().next().value!);
    keptTokens.set(text, tokens);
  }
  return tokens;
}

/** How many compared pairs of texts are kept; past it, every kept pair is dropped at once. */
export const FOLD_PAIRS_KEPT = 16_384;
const keptPairs = new Map<ReadonlySet<string>, Map<ReadonlySet<string>, boolean>>();
let pairsKept = 0;

/**
 * nearDuplicateTokens of two kept token sets, kept between pages. Trigger: every query compares
 * each recalled row with the rows of its page, the same pairs query after query (6 % of a
 * query's CPU on the demo once the tokens were kept). Keyed by the sets themselves: tokensOf
 * hands out one set per kept text, and the answer is a function of the two sets alone.
 */
function nearDuplicateKept(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  let row = keptPairs.get(a);
  let same = row?.get(b);
  if (same === undefined) {
    same = nearDuplicateTokens(a, b);
    if (pairsKept >= FOLD_PAIRS_KEPT) {
      keptPairs.clear();
      pairsKept = 0;
      row = undefined;
    }
    if (row === undefined) keptPairs.set(a, (row = new Map<ReadonlySet<string>, boolean>()));
    row.set(b, same);
    pairsKept += 1;
  }
  return same;
}

function foldReason(
  held: FoldInput,
  heldTokens: ReadonlySet<string>,
  row: FoldInput,
  rowTokens: ReadonlySet<string>,
): FoldReason | null {
  if (!FOLDABLE.has(held.kind) || held.project !== row.project) return null;
  if (promotedFrom(held, row) || promotedFrom(row, held)) return 'promoted_from';
  return nearDuplicateKept(heldTokens, rowTokens) ? 'near_duplicate' : null;
}

/** Whether `item` is a fact or rule promoted from the line `line`. */
function promotedFrom(item: FoldInput, line: FoldInput): boolean {
  return (
    item.fromLine !== null &&
    line.kind === 'line' &&
    item.fromLine.sha256 === line.sha256 &&
    item.fromLine.level === line.level
  );
}
