import { copiedText } from '@mem/core';
import { CUE_FAMILIES } from '../heuristic/cues.js';
import { profileQuestion, scoreSentence } from '../heuristic/score.js';

/**
 * How much an L1 line weighs for the synthesis question: the heuristic's sentence score of the
 * line it copies, without the `[query-id] ` prefix (the note's name, not the finding's words).
 * Every cue family counts as asked for: what someone should know before working on a project
 * is its causes and fixes, decisions, errors and open questions alike, and the synthesis
 * question's own words name none of them (scored on its words alone, nine lines in ten tied at
 * zero). One function for the order the synthesis offers lines in and the controller's choice
 * of what to keep, so the two agree.
 */
export function lineStrength(question: string): (line: string) => number {
  const profile = { ...profileQuestion(question), intents: new Set(CUE_FAMILIES) };
  return (line) => scoreSentence(profile, copiedText(line)).score;
}
