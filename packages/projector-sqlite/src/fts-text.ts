import type Database from 'better-sqlite3';

/*
 * CJK text for FTS5 (issue 13 §5). Trigger: unicode61 makes a run of Han, kana or Hangul one
 * token up to punctuation, so `キャッシュ` never found "テーマローダーはキャッシュを使う。" and a
 * Chinese or Korean word inside a sentence was never found. Outcome: the text FTS5 indexes has
 * each CJK run written as its overlapping character bigrams (Lucene's CJKAnalyzer, no
 * dictionary), and a CJK query term becomes the same bigrams matched as one phrase.
 *
 * Decision: bigrams, not Intl.Segmenter. ICU's word boundaries come with Node's ICU data and
 * change between builds; an index written by one Node and queried by another (or a rebuild on a
 * newer Node) would then disagree, and a rebuild must give the same store byte for byte. The
 * bigrams depend on the code point ranges below only (fixed in this file), and on NFKC of the
 * halfwidth and fullwidth forms (stable by Unicode's normalization stability policy).
 *
 * The shapes, index side: a run of one character is that character; a longer run is its
 * bigrams and then its last character alone ("東京都" → "東京 京都 都"). Why the last alone: a
 * one-character query `都` is the prefix query `都*` (every bigram that starts with it), and the
 * last character of a run starts no bigram. Query side (ftsPhrase): a run is its bigrams, the
 * last character alone only when the term goes on after the run (the indexed run ended there
 * too); a run of one character at the end of the term is a prefix.
 *
 * Decision on "京都" inside "東京都": found. A CJK query matches wherever its characters stand
 * next to each other in a run — substring semantics, what a search box without a dictionary
 * can promise; telling the word 京都 from the 京都 of 東京都 needs a dictionary. What never
 * matches: the bigrams scattered ("東京都" does not find "東京と京都": the phrase needs them
 * adjacent).
 *
 * Text with no character of these ranges is returned as it is: nothing changes for it.
 */

/** Han (with 々〆〇 and the Hangzhou numerals), Hiragana, Katakana (with ー), Hangul, and the halfwidth/fullwidth forms block. */
const RANGES =
  '\\u1100-\\u11FF\\u3005-\\u3007\\u3021-\\u3029\\u3031-\\u3035\\u3038-\\u303C\\u3041-\\u3096' +
  '\\u309D-\\u309F\\u30A1-\\u30FA\\u30FC-\\u30FF\\u3131-\\u318E\\u31F0-\\u31FF\\u3400-\\u4DBF' +
  '\\u4E00-\\u9FFF\\uA960-\\uA97F\\uAC00-\\uD7A3\\uD7B0-\\uD7FF\\uF900-\\uFAFF' +
  '\\u{1B000}-\\u{1B16F}\\u{20000}-\\u{3134F}';
const WIDTH = '\\uFF00-\\uFFEF';
const ANY = new RegExp(`[${RANGES}${WIDTH}]`, 'u');
const WIDTH_RUN = new RegExp(`[${WIDTH}]+`, 'gu');
// The combining voiced sound marks join the run, so that NFC composes decomposed kana (か + ゙ → が,
// as macOS writes file names) the way keyword-terms.ts composes a query.
const CJK_RUN = new RegExp(`(?:[${RANGES}]|\\u3099|\\u309A)+`, 'gu');
const CJK_CHAR = new RegExp(`^[${RANGES}]`, 'u');
// A term cut into its CJK runs and what stands between them (matchAll clones it: no shared lastIndex).
const PIECES = new RegExp(`[${RANGES}]+|[^${RANGES}]+`, 'gu');
// unicode61's token characters (keyword-terms.ts's TOKEN): what a non-CJK segment of a term holds.
const TOKEN = /[\p{L}\p{N}\p{Co}]+/gu;

/** True when `text` holds a character this file rewrites (a CJK character or a halfwidth/fullwidth form). */
export function holdsCjk(text: string): boolean {
  return ANY.test(text);
}

/** Halfwidth katakana and Hangul, fullwidth Latin and digits: their NFKC forms (ｷｬｯｼｭ → キャッシュ, ＡＰＩ → API). */
function foldWidth(text: string): string {
  return text.replace(WIDTH_RUN, (run) => run.normalize('NFKC'));
}

/** The bigrams of a run of two or more characters (code points). */
function bigrams(chars: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < chars.length; i += 1) out.push(chars[i]! + chars[i + 1]!);
  return out;
}

/** The tokens of a CJK run as indexed: itself when one character, else its bigrams and its last character. */
function indexedRun(run: string): string {
  const chars = [...run];
  if (chars.length === 1) return run;
  return [...bigrams(chars), chars[chars.length - 1]!].join(' ');
}

/**
 * The text FTS5 indexes for `text` (node_fts and item_fts, both written from it; the
 * `mem_fts_text` SQL function): each CJK run, in NFC as a query's terms are (decomposed kana
 * composed, a CJK compatibility ideograph its unified one), replaced by its bigrams
 * (indexedRun), set apart by spaces from what stands next to it; `text` itself when it holds no CJK character or
 * halfwidth/fullwidth form.
 */
export function ftsIndexText(text: string): string {
  if (!ANY.test(text)) return text;
  return foldWidth(text).replace(CJK_RUN, (run) => ` ${indexedRun(run.normalize('NFC'))} `);
}

/**
 * The FTS5 MATCH phrase of one keyword term (a token of keyword-terms.ts: letters and digits
 * only): `"term"` (quotes doubled) when it holds no CJK character — exactly as before — else
 * the phrase of its tokens as ftsIndexText would index them where the term stands inside a
 * longer run: each CJK run its bigrams (and its last character when the term goes on after
 * it), a one-character run that ends the term a prefix (`"都"*`). Always one quoted string, so
 * never an operator, a column filter or syntax of the user's.
 */
export function ftsPhrase(term: string): string {
  const quote = (text: string) => `"${text.replaceAll('"', '""')}"`;
  if (!ANY.test(term)) return quote(term);
  const folded = foldWidth(term);
  const tokens: string[] = [];
  let prefix = false;
  const pieces = [...folded.matchAll(PIECES)].map((m) => m[0]);
  pieces.forEach((piece, i) => {
    if (!CJK_CHAR.test(piece)) {
      tokens.push(...(piece.match(TOKEN) ?? []));
      return;
    }
    const chars = [...piece];
    const last = i === pieces.length - 1;
    if (chars.length === 1) {
      tokens.push(piece);
      prefix = last;
    } else tokens.push(...bigrams(chars), ...(last ? [] : [chars[chars.length - 1]!]));
  });
  return `${quote(tokens.join(' '))}${prefix ? '*' : ''}`;
}

/**
 * Registers `mem_fts_text(text)` (ftsIndexText; NULL stays NULL) on `db`: what the statements
 * that write node_fts and item_fts index, on every connection that writes them.
 */
export function registerFtsText(db: Database.Database): void {
  db.function('mem_fts_text', { deterministic: true }, (text: unknown) =>
    typeof text === 'string' ? ftsIndexText(text) : text,
  );
}
