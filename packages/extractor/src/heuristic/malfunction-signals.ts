import type { ChunkRecord } from '../controller.js';
import type { Signal } from './summary-signals.js';
import { sentences } from './text.js';

/*
 * A user saying that something does not work is a bug report in the words of the one who saw
 * it, often with the suspected cause attached ("maybe because the outer page catches it"). It
 * is evidence even when the session never gets to a fix: the failure is what the next session
 * must know. Something done wrongly ("this doesn't set the index correctly") is a malfunction
 * as much as something that does not start. The agent's own "X does not start because …" is
 * judged as prose, with its cues.
 */

const MALFUNCTION =
  /\b(?:(?:does|do|did|will|would|is|are|was|were|could|can)(?:n't|\s+not)|won't|can't|cannot)\s+(?!(?:we|you|i|they)\b)(?:\w+\s+)?(?:work|start|load|run|build|compile|connect|render|show|scroll|open|save|respond)\w*\b|\b(?:is|are|was|were|still|seems?)\s+(?:still\s+)?(?:broken|failing|crashing|hanging|stuck)\b|\b(?:does|do|did|is|are|was|were)(?:n't|\s+not)\s+(?!(?:we|you|i|they)\b)(?:[\w.`'-]+\s+){1,4}(?:correctly|properly)\b/i;
// "Does it work now?" asks about a fix; "don't we load all entries?" (a pronoun after the
// negation) asks about the design; "that works now" is no report.
const ASKS_STATUS = /^\s*(?:does|did|is|will)\s+(?:it|this|that)\b/i;

/** One bug line per user sentence that reports a malfunction, in transcript order. */
export function userReportSignals(records: readonly ChunkRecord[]): Signal[] {
  const out: Signal[] = [];
  for (const record of records) {
    if (record.role !== 'user' || record.pasted !== undefined) continue;
    // Users rarely capitalise: "…catches it)? websearch xterm.js" is two sentences.
    const said = sentences(record.text).flatMap((s) => s.split(/(?<=[?!.])\s+/));
    for (const sentence of said) {
      if (!MALFUNCTION.test(sentence) || ASKS_STATUS.test(sentence)) continue;
      out.push({ text: `User reports: ${sentence.trim()}`, family: 'cause' });
    }
  }
  return out;
}
