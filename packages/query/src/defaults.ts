import type { RelevanceFloor } from './floor.js';
import { EQUAL_WEIGHTS, type SignalWeights } from './fusion.js';

/*
 * Defaults chosen by measurement (README, "Measured defaults"), on LoCoMo's first two
 * conversations as the dev split: 302 real questions with evidence, and 40 software questions
 * those chats cannot answer, asked of the same stores (80 asks). The other eight conversations
 * were not looked at while choosing.
 */

/**
 * Keyword: a hit clears the floor holding more than a third of the searched terms (0.34: for up
 * to 32 terms no k/n lies in (1/3, 0.34)), or with a normalised BM25 of at least 1.5 — rare,
 * distinctive terms such as an error code. Dev: 1.7% of the real questions abstain, 1.3% of
 * the unanswerable ones answer. Raw BM25 could not separate them (its scale grows with ln N, and
 * a reference corpus repeating a word drives that word's IDF to zero at every level);
 * normalised BM25 alone at 0.7 still answered 54% of the unanswerable ones.
 */
export const KEYWORD_FLOOR = { minCoverage: 0.34, minKeyword: 1.5 } as const;

/**
 * Postings (term × matching node) one keyword recall may search: the nodes they reach are its
 * candidates. On the bench's 100k-node store a question's terms rarely reach it (1 of 200); a
 * pasted 60-word log far exceeds it, and its commonest words are scored on the best candidates
 * only (RESCORED_CANDIDATES in keyword-recall.ts).
 */
export const KEYWORD_POSTINGS_BUDGET = 20_000;

/**
 * The hash embedder (feature hashing of words and character n-grams: lexical, no IDF).
 * Similarity floor 0.45: above every unanswerable question's best match on dev (p99 0.444)
 * and below a pasted error against its own symptom text (0.6–0.75). Fusion weight of its text
 * vector 0.1: on dev, recall@10 was 0.609 on keywords alone, 0.611 at 0.1, 0.584 at 0.2 and
 * 0.465 at 1 (plain RRF) — a lexical vector without IDF mostly re-ranks by function words.
 */
export const HASH_DEFAULTS = {
  minSimilarity: 0.45,
  weights: { keyword: 1, vector_text: 0.1, vector_symptom: 1 },
} as const;

/**
 * Any other embedder (an OpenAI-compatible model): not measured here (no model in reach of the
 * test machines). Plain RRF, and a conservative similarity floor: a vector hit alone must be
 * close to clear it; pass `QueryDeps.floor` once a model's distribution is known.
 */
export const MODEL_DEFAULTS = { minSimilarity: 0.6, weights: EQUAL_WEIGHTS } as const;

function isHash(embedderName: string | null): boolean {
  return embedderName !== null && /^hash-\d+$/.test(embedderName);
}

/** The relevance floor for a query embedded by `embedderName` (null: keyword only). */
export function defaultFloor(embedderName: string | null): RelevanceFloor {
  return {
    ...KEYWORD_FLOOR,
    minSimilarity: isHash(embedderName)
      ? HASH_DEFAULTS.minSimilarity
      : MODEL_DEFAULTS.minSimilarity,
  };
}

/** The fusion weights for a query embedded by `embedderName`. */
export function defaultWeights(embedderName: string | null): SignalWeights {
  return { ...(isHash(embedderName) ? HASH_DEFAULTS.weights : MODEL_DEFAULTS.weights) };
}
