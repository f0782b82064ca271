import type { ChunkRecord } from '../controller.js';
import { carriesOut, namedFiles } from './carried-out.js';
import { replyContent } from './chatter.js';
import { isOffer } from './cues.js';
import { isHollowSpeech, withoutAbuse } from './hollow.js';
import type { Signal } from './summary-signals.js';
import { namesSomething, termSet } from './text.js';

/*
 * Signals read off who said what to whom: a user correction is a decision with its rejected
 * alternative (and the proposal it corrects is no decision), and a question or problem report
 * nobody answered in the chunk is an open question.
 */

// "this is not how it works" corrects the agent's picture of the system as surely as a "no";
// "use X, not Y" names the choice and the rejected alternative (the "not Y" closes the sentence:
// "use the logger, it is not slow" negates something else).
const CORRECTION =
  /^\s*(?:no\b|nope\b|don'?t\b|do not\b|never\b|stop\b|(?:that|this|it)(?:'s| is) (?:wrong|not)\b|wrong\b)|\b(?:use|try|prefer) [^.?!]{1,80}? instead\b|\buse [^.?!,]{1,80},\s*(?:not|no|never)\s+[^\s.?!,]+(?:\s+[^\s.?!,]+){0,3}\s*[.!]*\s*$/i;
/** Text that ends on a question mark. */
export const QUESTION = /\?\s*$/;
const NOT_HOW = /^\s*(?:that|this|it)(?:'s| is) not (?:how|what|the way)\b/i;
const PROBLEM =
  /\b(?:doesn'?t|does not|isn'?t|is not|won'?t|can'?t|cannot|not working|fails?|failing|broken|crash\w*)\b/i;
// An agent's question that opens on a verb proposes its own next step ("Run the tests too?"):
// an offer to the user, not a question the project left open.
const PROPOSED_STEP =
  /^(?:also\s+)?(?:run|rename|add|update|remove|delete|commit|push|create|install|fix|change|move|apply|merge|deploy|implement|write|document|mention|bump|release)\b/i;
const LINE_CHARS = 300;
/**
 * A version-control or release step: what the agent should do with the work, not how the
 * project is built ("stop commiting everything").
 */
const WORKFLOW =
  /\b(?:commit\w*|push\w*|amend\w*|rebas\w*|merg(?:e|es|ed|ing)|stag(?:e|es|ed|ing)|deploy\w*|publish\w*|releas(?:e|es|ed|ing))\b/i;
/** A correction this short that names nothing says only what to do next. */
const INSTRUCTION_WORDS = 6;

/**
 * A user correction of the agent's process ("stop commiting everything"): a short one on a
 * workflow step that names no part of the project. An instruction for the session, no
 * decision a later reader of the project needs.
 */
function isProcessInstruction(text: string): boolean {
  return (
    WORKFLOW.test(text) && text.split(/\s+/).length <= INSTRUCTION_WORDS && !namesSomething(text)
  );
}

function clip(text: string): string {
  const flat = text.trim().replace(/\s*\n\s*/g, ' ');
  return flat.length > LINE_CHARS ? `${flat.slice(0, LINE_CHARS).trimEnd()}…` : flat;
}

function spoken(record: ChunkRecord): boolean {
  return (record.role === 'user' && record.pasted === undefined) || record.role === 'assistant';
}

/** User corrections as decision lines, and the indices of the assistant proposals they reject. */
export function correctionSignals(records: readonly ChunkRecord[]): {
  signals: Signal[];
  rejected: Set<number>;
} {
  const signals: Signal[] = [];
  const rejected = new Set<number>();
  records.forEach((record, i) => {
    // A question ("don't we load all entries?") asks; it does not correct.
    if (
      record.role !== 'user' ||
      record.pasted !== undefined ||
      /\?/.test(record.text) ||
      !CORRECTION.test(record.text) ||
      record.text.length > LINE_CHARS * 2 ||
      isHollowSpeech(record.text) ||
      isProcessInstruction(record.text)
    )
      return;
    signals.push({
      text: `User decision: ${clip(withoutAbuse(record.text))}`,
      family: 'decision',
      byWords: true,
    });
    for (let j = i - 1; j >= 0 && records[j]!.role !== 'user'; j--)
      if (records[j]!.role === 'assistant') rejected.add(j);
  });
  return { signals, rejected };
}

/** A message that takes the turn elsewhere rather than adding to it. */
const REDIRECT =
  /\b(?:instead|forget (?:it|that|about)|never ?mind|scratch that|cancel|stop|wait)\b/i;

/**
 * Where the agent's turn that `records` continue ends: at the first user message it did not
 * take up while working, or -1 when it runs to their end.
 * Trigger: a user message whose nearest record before it (past other user messages) is a tool
 * result, and that adds to the work rather than redirecting it. Why: the user wrote while the
 * agent was still at work ("oh, and it would also be nice to …" between two tool runs, a queued
 * message); the agent goes on with the turn it was in and does the first request as well as the
 * addition, so the commit or the "Done." that closes the first comes after the second.
 * Outcome: such a message does not end the turn. A message after the agent's spoken reply,
 * after an interruption (a `system` record) or a call still without its result, one saying
 * "instead" or "stop", or one with nothing before it, does.
 */
export function turnEndIn(records: readonly ChunkRecord[]): number {
  return records.findIndex((r, k) => {
    if (r.role !== 'user' || r.pasted !== undefined) return false;
    let j = k - 1;
    while (j >= 0 && records[j]!.role === 'user') j -= 1;
    return j < 0 || records[j]!.role !== 'tool_result' || REDIRECT.test(r.text);
  });
}

/**
 * A reply that shares a content term with a question takes it up: the question is not left open.
 * The reply is read without its chatter sentences: "I see. `loadSessionFromEntries` already
 * handles this…" answers, though it opens on narration ("I see"), and "Looking at the code:"
 * alone does not.
 */
const ANSWER_OVERLAP = 1;

/**
 * Questions (a user's, or the agent's to the user) and user problem reports that nothing later
 * in the chunk answers: an agent reply of the same turn sharing terms with a user's question,
 * any user reply to the agent's.
 */
export function openQuestionSignals(records: readonly ChunkRecord[]): Signal[] {
  const out: Signal[] = [];
  records.forEach((record, i) => {
    if (!spoken(record) || record.text.startsWith('[thinking]')) return;
    const text = record.text.trim();
    const lastLine = text.split('\n').at(-1)!.trim();
    const asks =
      QUESTION.test(lastLine) &&
      !isOffer(lastLine) &&
      !(record.role === 'assistant' && PROPOSED_STEP.test(lastLine)) &&
      lastLine.split(/\s+/).length >= 4;
    // "This is not how it works" states how things are (a decision line), not a malfunction.
    const reports =
      record.role === 'user' &&
      text.length <= LINE_CHARS &&
      PROBLEM.test(text) &&
      !NOT_HOW.test(text);
    if (!asks && !reports) return;
    if (isHollowSpeech(record.role === 'user' ? text : lastLine)) return;
    const terms = termSet(record.role === 'user' ? text : lastLine);
    // Trigger: the user speaks again before the agent does anything (two messages in a row, a
    // "continue" after a turn cut off empty). Why: the agent's next turn takes up both.
    // Outcome: a user question's turn is the one after the last of them.
    let from = i + 1;
    if (record.role === 'user') while (records[from]?.role === 'user') from += 1;
    const later = records.slice(from).filter((r) => spoken(r) && !r.text.startsWith('[thinking]'));
    // Trigger: a user question. Why: the agent answers it in its reply, before the user speaks
    // again; what it says after a later request (a poem, the next task) shares words by chance.
    // Outcome: only the replies of the same turn can answer it (answersOpen reads the
    // turn on across a chunk boundary the same way).
    const nextUser = later.findIndex((r) => r.role === 'user');
    const reply = nextUser < 0 ? later : later.slice(0, nextUser);
    // A user's request is closed by doing it as well as by an answer: the turn's tool calls
    // (records `later` leaves out) edit and the agent reports it done, or it commits.
    const turn = records.slice(from);
    const turnEnd = turnEndIn(turn);
    const answered =
      record.role === 'assistant'
        ? nextUser >= 0
        : reply.some(
            (r) =>
              r.role === 'assistant' &&
              [...termSet(replyContent(r.text))].filter((t) => terms.has(t)).length >=
                ANSWER_OVERLAP,
          ) || carriesOut(turnEnd < 0 ? turn : turn.slice(0, turnEnd), false, namedFiles(text));
    if (!answered)
      out.push({
        text: `Open: ${clip(record.role === 'user' ? text : lastLine)}`,
        family: 'open',
        // A user's request is in the chunk's last turn while that turn runs to the chunk's end,
        // past messages the user added while the agent worked (turnEndIn).
        ...(record.role === 'user'
          ? turnEnd < 0
            ? { lastTurn: 'user' as const }
            : {}
          : nextUser < 0
            ? { lastTurn: 'agent' as const }
            : {}),
      });
  });
  return out;
}

/**
 * The memory's open lines this chunk closes as it opens: the agent's replies before the user
 * speaks again continue the previous chunk's last turn, so one sharing a term with the latest
 * question takes it up (the same test as within a chunk; a chunk boundary falls anywhere in a
 * turn), and work that turn carries out closes the user's requests of that turn. Where the
 * previous chunk is known (`lastTurn`), only lines asked in its last turn can leave.
 */
export function answersOpen(
  lines: readonly string[],
  records: readonly ChunkRecord[],
  lastTurn?: ReadonlyMap<string, 'user' | 'agent'>,
): number[] {
  const latest = lines.findLastIndex((line) => line.startsWith('Open: '));
  if (latest < 0) return [];
  const turnEnd = turnEndIn(records);
  const turn = turnEnd < 0 ? records : records.slice(0, turnEnd);
  // Trigger: the turn goes on from the previous chunk, where its edits may lie, and reports
  // work done or commits here. Why: a turn that took up a request and then one the user added
  // while it worked ("oh, and …", turnEndIn) does both before it says "Done."; only the latest
  // line leaving kept the first request open. Outcome: every request of that turn leaves.
  if (lastTurn !== undefined) {
    const done = carriesOut(turn, true);
    // A request naming a file is done by an edit of that file, whichever request it was.
    const closed = lines.flatMap((line, i) =>
      lastTurn.get(line) === 'user' && (done || carriesOut(turn, false, namedFiles(line)))
        ? [i]
        : [],
    );
    if (closed.length > 0) return closed;
  }
  // Trigger: the previous chunk is known (`lastTurn`, its questions asked in its last turn).
  // Why: a question the user spoke after was not the turn this chunk continues; the agent's
  // reply here answers the user's later words. Outcome: only a last-turn question can leave.
  if (lastTurn !== undefined && !lastTurn.has(lines[latest]!)) return [];
  // The agent's question, asked last, is answered by whatever the user says next (as within a
  // chunk): "Anything specific you'd like to add?" then "could repeat it in hooks.md".
  if (lastTurn?.get(lines[latest]!) === 'agent') return turnEnd >= 0 ? [latest] : [];
  const terms = termSet(lines[latest]!.slice('Open: '.length));
  if (carriesOut(turn, true)) return [latest];
  for (const record of turn) {
    if (record.role !== 'assistant' || record.text.startsWith('[thinking]')) continue;
    const shared = [...termSet(replyContent(record.text))].filter((t) => terms.has(t)).length;
    if (shared >= ANSWER_OVERLAP) return [latest];
  }
  return [];
}
