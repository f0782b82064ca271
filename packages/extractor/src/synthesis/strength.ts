import { copiedText } from '@mem/core';
import { CUE_FAMILIES, cuesIn } from '../heuristic/cues.js';
import { routeLine } from '../heuristic/route.js';
import { profileQuestion, scoreSentence } from '../heuristic/score.js';
import { termSet } from '../heuristic/text.js';

/**
 * How much an L1 line weighs for the synthesis question: the heuristic's sentence score of the
 * line it copies, without the `[query-id] ` prefix (the note's name, not the finding's words).
 * Every cue family counts as asked for: what someone should know before working on a project
 * is its causes and fixes, decisions, errors and open questions alike, and the synthesis
 * question's own words name none of them (scored on its words alone, nine lines in ten tied at
 * zero).
 */
export function lineStrength(question: string): (line: string) => number {
  const profile = { ...profileQuestion(question), intents: new Set(CUE_FAMILIES) };
  return (line) => scoreSentence(profile, copiedText(line)).score;
}

/**
 * What an L1 line tells someone about to work on the project, read from what it says (not the
 * note it sits in): a standing `rule` ("always run the checks", "prefers surgical edits", "must
 * exit with code 0"); a `decision` (a choice said with its cue or its rejected alternative); the
 * project's `state` (a description of what it is or has: a changelog entry, a summary's list);
 * an `open` question or pending task; a past `incident` (a bug, a failed run, its fix).
 */
export type SynthesisKind = 'rule' | 'state' | 'decision' | 'open' | 'incident';

/** The kinds in the order a tie between equal ranks goes: what holds now before what happened. */
export const SYNTHESIS_KINDS: readonly SynthesisKind[] = [
  'rule',
  'state',
  'decision',
  'open',
  'incident',
];

export function synthesisKind(line: string): SynthesisKind {
  const text = copiedText(line);
  const routed = routeLine(text);
  if (routed === 'open') return 'open';
  if (routed === 'cause' || routed === 'tool') return 'incident';
  const cues = cuesIn(text).filter((cue) => cue.strength === 'strong');
  if (cues.some((cue) => cue.family === 'rule')) return 'rule';
  if (cues.some((cue) => cue.family === 'decision')) return 'decision';
  return 'state';
}

/**
 * A guess: the speaker is not sure ("the issue is likely that …", "it might be loading the
 * light theme", "I bet VS Code detects light"). A later line of the session settles it or drops
 * it, so a guess is kept only where no settled line of any kind is left. Only bounded
 * alternations, no look-behind.
 */
const GUESS =
  /\b(?:might|may|could) (?:be|have)\b|\b(?:likely|probably|perhaps|maybe|possibly|presumably)\b|\bi (?:bet|guess|suspect|think|assume)\b|\bseems? (?:to|like)\b/iu;

export function isGuess(line: string): boolean {
  return GUESS.test(copiedText(line));
}

/**
 * The synthesis priority of each of a set of L1 lines (higher is kept first), one function for
 * the order the synthesis offers lines in and the controller's choice of what to keep, so the
 * two agree.
 *
 * Trigger: the synthesis question asks for the current state of a project and what to know
 * before working on it, and its lines were ranked by cue words alone. Why: a past incident
 * carries the most cue words ("the issue is", "crash", "fixed"), so bug lines filled the L2
 * memory and a state line with none (the changelog's "Theme System: … VS Code users: set
 * `minimumContrastRatio` to 1", "Release process: …") never made it. Outcome: a balance of
 * kinds — each kind's lines are ranked among themselves (by the cue score, then by how many
 * content terms a line names: the fuller description of the same system first), and the kinds
 * take turns: every kind's best line, then every kind's second, and so on, a tie going to rules
 * and state before decisions, open questions and incidents. A kind with few lines leaves its
 * turns to the others, so a project with only bugs still fills the memory with its bugs. Every
 * settled line comes before any guess, whatever its kind (a guess weighs 1 less).
 */
export function synthesisPriority(question: string): (lines: readonly string[]) => number[] {
  const strength = lineStrength(question);
  return (lines) => {
    const read = lines.map((line, index) => ({
      index,
      kind: synthesisKind(line),
      guess: isGuess(line),
      score: strength(line),
      terms: termSet(copiedText(line)).size,
    }));
    const out = new Array<number>(lines.length).fill(0);
    for (const [order, kind] of SYNTHESIS_KINDS.entries()) {
      const ranked = read
        .filter((line) => line.kind === kind)
        .sort(
          (a, b) =>
            Number(a.guess) - Number(b.guess) ||
            b.score - a.score ||
            b.terms - a.terms ||
            a.index - b.index,
        );
      for (const [rank, line] of ranked.entries())
        out[line.index] = (line.guess ? 0 : 1) + 1 / (1 + rank) - order * KIND_STEP;
    }
    return out;
  };
}

/** Below the gap between two ranks of a kind (1/n − 1/(n+1) at a few hundred lines): a tie-break only. */
const KIND_STEP = 1e-7;
