import { scoreSentence, type QuestionProfile, type SentenceScore } from './score.js';
import type { MemoryItem } from './fold.js';
import { asksForSeveral } from './question-shape.js';

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
/**
 * The score a sentence needs to add to the held answer of a question asking for several things:
 * the gate's 0.4 and a tenth. A weaker one is still judged a repeat. On LoCoMo's tuning half, no
 * bar at all gained multi-hop recall and lost more precision (F1 0.5124 against 0.5141 before);
 * 0.45 gave 0.5205, 0.5 gave 0.5251, 0.55 gave 0.5219.
 */
const SEVERAL_BAR = 0.5;

export function heldAnswer(
  profile: QuestionProfile,
  remembered: readonly MemoryItem[],
  best: SentenceScore,
): MemoryItem | undefined {
  if (!profile.factual || best.matched.length === 0) return undefined;
  // Trigger: a question asking for several things ("Where has Melanie camped?", question-shape.ts).
  // Why: each may be said in another session, and the held line matched the same terms as the
  // next one (multi-hop recall was 25 % on LoCoMo tuning). Outcome: a sentence scoring at least
  // SEVERAL_BAR is a new answer, not a repeat.
  if (asksForSeveral(profile.question) && best.score >= SEVERAL_BAR) return undefined;
  return remembered.find((item) => {
    const held = new Set(scoreSentence(profile, item.text).matched);
    return best.matched.every((term) => held.has(term));
  });
}
