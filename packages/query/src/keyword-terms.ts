import { ftsPhrase } from '@mem/projector-sqlite';
import { STOPWORDS } from './stopwords.js';

/** At most this many distinct terms reach FTS5: a pasted 50 KB log must not become a 5,000-way OR. */
export const MAX_KEYWORD_TERMS = 32;

/** What keyword recall searches for, derived from the user's text. */
export interface KeywordTerms {
  /** Distinct content terms, lowercased, in order of first appearance. */
  terms: string[];
  /** Distinct function words left out (one also written as a flag is a term too). */
  stopwords: string[];
  /** Distinct content terms beyond MAX_KEYWORD_TERMS, left out. */
  overflow: number;
}

// FTS5's unicode61 token characters (its default `categories`): letters, numbers, private use.
const TOKEN = /[\p{L}\p{N}\p{Co}]+/gu;

/**
 * Tokenises text the way FTS5's unicode61 tokenizer does (every run of other characters
 * separates), so user text is only ever words: `-`, `"`, `*`, `:`, `(`, `^` are separators, and a
 * word such as NEAR or AND is a word. Function words are dropped unless `keepStopwords` — but
 * never a command-line flag (`--all`, `-a`): in a coding agent's memory a flag is the point.
 */
export function keywordTerms(
  text: string,
  options: { keepStopwords?: boolean } = {},
): KeywordTerms {
  const seen = new Set<string>();
  const terms: string[] = [];
  const stopwords: string[] = [];
  let overflow = 0;
  const normal = text.normalize('NFC').toLowerCase();
  for (const match of normal.matchAll(TOKEN)) {
    const piece = match[0];
    if (seen.has(piece)) continue;
    if (!options.keepStopwords && STOPWORDS.has(piece) && !isFlag(normal, match.index)) {
      if (!stopwords.includes(piece)) stopwords.push(piece); // a later `--piece` may still make it a term
      continue;
    }
    seen.add(piece);
    if (terms.length < MAX_KEYWORD_TERMS) terms.push(piece);
    else overflow += 1;
  }
  return { terms, stopwords, overflow };
}

/** A word right after `-` or `--` that follows whitespace or the start: `--all`, `-a`. */
function isFlag(text: string, at: number): boolean {
  if (text[at - 1] !== '-') return false;
  const before = text[at - 2] === '-' ? at - 3 : at - 2;
  return before < 0 || /\s/u.test(text[before]!);
}

/**
 * The FTS5 MATCH expression of the terms: each a double-quoted string (quotes doubled, though
 * the tokenizer leaves none), joined by OR or AND. A quoted string is always a plain term to
 * FTS5, never an operator or a column filter. A term holding CJK characters is the phrase of
 * its bigrams, as node_fts indexes them (ftsPhrase, @mem/projector-sqlite's fts-text.ts), a
 * one-character CJK run ending it a prefix — the only prefix query made, and never the user's
 * `*`. Null when there are no terms.
 */
export function matchExpression(terms: readonly string[], join: 'OR' | 'AND'): string | null {
  if (terms.length === 0) return null;
  return terms.map(ftsPhrase).join(` ${join} `);
}
