import type { ChunkRecord } from '../controller.js';
import { isChatter } from './chatter.js';
import { pastesCrash } from './report-signals.js';
import type { Signal } from './summary-signals.js';
import { sentences } from './text.js';

/*
 * The agent conceding a correction ("Ah, you're right. The entry is appended, not inserted.")
 * restates, in one clean sentence, what the user just set right: the corrected design, worded
 * better than the user's own message, which often rides on a diagram or a question. The
 * concession itself is cheer and stays out; a concession with nothing after it ("You're right!
 * Let me check.") says nothing. Agents concede often, so the line rides on an update the chunk
 * makes anyway: alone it opened the decisions gate on a third of a long session's chunks.
 */

const CONCESSION =
  /^(?:(?:ah|oh|yes|yeah|right)[,!.]?\s+)?(?:(?:you're|you are) (?:absolutely |completely |totally )?(?:right|correct)(?! to\b)|(?:good|great|nice) catch|my mistake|i was wrong)\b[\s!.,:;—–-]*/i;
const LINE_CHARS = 300;
// The agent on itself ("I misread it", "That makes much more sense") states no corrected fact.
const SELF = /^(?:i\b|i'm\b|that makes\b|makes sense\b)/i;

/** One decision line per concession of the agent that states the corrected fact. */
export function concessionSignals(records: readonly ChunkRecord[]): Signal[] {
  const out: Signal[] = [];
  // Whether a tool ran since the user last spoke: a concession made only after looking is the
  // agent finding its own slip ("I'm an idiot, those are already correct"), not the user's
  // correction restated.
  let looked = false;
  // Whether the user last pasted a crash. Trigger: "invalid themes must NEVER explode" over a
  // stack, and the agent's "You're right - invalid themes should never crash the app". Why: that
  // concedes a bug report, not a design the user set right; the crash and its fix are a bug
  // line (report-signals.ts), and the concession repeated it in the user's words in every note.
  // Outcome: no line. The crash is judged on every user record: a reader marks a message that is
  // mostly stack frames a paste ("layouts must NEVER explode" over eight frames), and a paste
  // beside the user's words adds its crash to theirs.
  let crash = false;
  for (const record of records) {
    if (record.role === 'user' && record.pasted === undefined) {
      looked = false;
      crash = pastesCrash(record.text);
    } else if (record.role === 'user') crash ||= pastesCrash(record.text);
    if (record.role === 'tool_call') looked = true;
    if (record.role !== 'assistant' || looked || crash) continue;
    const text = record.text.trim();
    const match = CONCESSION.exec(text);
    if (match === null) continue;
    const stated = sentences(text.slice(match[0].length)).find((s) => !isChatter(s));
    if (stated === undefined || stated.length > LINE_CHARS || SELF.test(stated)) continue;
    out.push({
      text: `Corrected: ${stated.trim()}`,
      family: 'decision',
      rides: true,
      byWords: true,
    });
  }
  return out;
}
