import { hashEmbed } from '@mem/embed';
import type { QuestionProfile } from './score.js';

/*
 * How near a chat turn's words are to a factual question's, beside the term score: the cosine of
 * the embedded default embedder's vectors (hash-embedder.ts: word unigrams, word bigrams and
 * character 3–5-grams). It sees what the term score does not: word order ("went camping"), and
 * word forms the stemmer keeps apart ("married" / "marriage", "LGBTQ+" / "LGBTQ").
 */

/** The cosine's share in a turn's score. */
export const MEANING_WEIGHT = 0.4;
/**
 * Taken off every blended score: a turn whose cosine is 0.25 keeps its term score, and the
 * average turn (cosine 0.085 with its question on LoCoMo's tuning half, 0.175 at the 90th
 * percentile) loses about 0.07, so the gate asks more of a turn that shares only a name and a
 * word with the question. A plain threshold raise is not the same: 0.42 and 0.45 lowered the
 * held-out F1 (stop 31).
 */
export const MEANING_OFFSET = 0.1;
/** The vectors' dimension: the embedded default's (embedDimsFromEnv). */
const DIMS = 768;

const questions = new WeakMap<QuestionProfile, Float32Array>();

/**
 * A chat turn's score for a factual question, with the cosine of the two texts' hashed vectors
 * added (MEANING_WEIGHT) and MEANING_OFFSET taken off; never below 0.
 *
 * Trigger: a factual question (QuestionProfile.factual) asked of a labelled chat (the turns carry
 * their speaker's name: chatSpeakers), where the term score alone judges each turn. Why: terms
 * miss what a chat says in other forms, and a turn that only names the person and one common
 * word reached the gate as well as the answer did; on LoCoMo's tuning half the hashed cosine
 * alone ranks sessions worse than the terms (AUC 0.63 against 0.88), but added to them it lifts
 * gate precision 52.1 → 58.2 % for recall 55.9 → 53.9 % (F1 0.5390 → 0.5597; held-out
 * 0.4919 → 0.5048). Outcome: the turn's score is the blend; the terms it matched are unchanged.
 * Only in a chat: a coding transcript's standing questions ask for kinds of finding, which cues
 * judge, and its lines are never scored so.
 */
export function withMeaning(profile: QuestionProfile, text: string, score: number): number {
  let question = questions.get(profile);
  if (question === undefined)
    questions.set(profile, (question = hashEmbed(profile.question, DIMS)));
  const turn = hashEmbed(text, DIMS);
  let cosine = 0;
  for (let i = 0; i < DIMS; i += 1) cosine += question[i]! * turn[i]!;
  const blended = score + MEANING_WEIGHT * cosine - MEANING_OFFSET;
  return blended <= 0 ? 0 : Math.round(blended * 1e6) / 1e6;
}
