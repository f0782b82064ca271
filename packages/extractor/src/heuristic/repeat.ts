import { scoreSentence, type QuestionProfile, type SentenceScore } from './score.js';
import type { MemoryItem } from './fold.js';

/**
 * The remembered line that already answers a factual question as well as a chunk's best sentence
 * could, if any: one matching every question term the sentence matches.
 *
 * Trigger: a factual question (QuestionProfile.factual: no cue intent, and it names someone or
 * something: "When did Melanie paint a sunrise?"), whose only evidence is its own terms. Why: a person or a hobby named in the
 * question comes back in session after session ("Melanie: painting calms me"); once the memory
 * holds the line that matched those terms, a later sentence matching no more of them is a
 * repeat, not an answer, and an update for it costs the gate its precision. Outcome: the chunk
 * is judged a repeat and the memory is kept, however the two score: a higher score with the same
 * question terms is only more of them in one sentence (on LoCoMo's tuning half, asking the held
 * line to be as strong cost 5 points of gate precision). A question that asks for a kind of evidence (bugs,
 * decisions, open questions) is never judged so: each new finding of the kind matches the same
 * generic question terms as the last one and is still new; nor is a question that names nothing in
 * particular ("What is the current state of this project?"), for the same reason.
 */
export function heldAnswer(
  profile: QuestionProfile,
  remembered: readonly MemoryItem[],
  best: SentenceScore,
): MemoryItem | undefined {
  if (!profile.factual || best.matched.length === 0) return undefined;
  return remembered.find((item) => {
    const held = new Set(scoreSentence(profile, item.text).matched);
    return best.matched.every((term) => held.has(term));
  });
}
