import type { ChunkRecord } from '../controller.js';
import { carriesOut } from './carried-out.js';
import { isHollowSpeech } from './hollow.js';
import type { Signal } from './summary-signals.js';
import { turnEndIn } from './talk-signals.js';
import { sentences, termSet } from './text.js';

/*
 * The agent asks the user to choose ("This seems like a minor release, so I'd suggest … Or do
 * you want a patch release?") and the user answers with one of the options ("minor, this is a
 * big change"). The user's reply alone says nothing a later reader can use; with the question
 * it answers, it is a decision with its rejected alternative — the kind of line the decisions
 * question asks for, and one nobody states anywhere else in the session. Likewise a user's
 * suggestion ("… or maybe a custom tool?") that the agent then carries out.
 */

/** An agent's question that offers alternatives: "X or Y?", "Or do you want …?", "either …". */
const OFFERS_CHOICE = /(?:^|\s)(?:or|either)\s[^?]*\?\s*$/i;
/**
 * The question asks for a preference or a choice of action ("Should I …, or …?", "Or do you want
 * …?", "Which approach …?", "Should the config live in YAML or JSON?", "Want to keep the old flag,
 * or drop it?", "Which is better here: Redis or Postgres?", "Is it OK to drop the column, or keep
 * it?"). An either-or question about facts ("Is the error still happening, or
 * is it fixed now?", "Does the crash happen on Windows or on macOS?") is answered by a fact, and
 * the answer decides nothing.
 */
const ASKS_CHOICE =
  /\b(?:(?:should|shall) (?:i|we|it|the|this)|do you (?:want|prefer|need)|would you (?:like|prefer|rather)|prefer(?:s|red|ence|able)?|want me to|which (?:one|option|approach|way|version|variant|of (?:these|those|the))|which (?:is|would be) (?:better|preferable)|is it (?:ok|okay|fine|alright) to)\b|^want\b/i;
/**
 * A question about which piece of work comes next ("Ready for custom-tools.md or rpc.md?",
 * "Move on to the importer, or the exporter first?"): the answer orders the session's tasks,
 * it decides nothing about the project.
 */
const NEXT_TASK = /\b(?:ready (?:for|to)|move on|go on|next|continue with|start with|first)\b/i;
/** A reply that only agrees, refuses or goes on is no choice among options. */
const NO_CHOICE =
  /^(?:yes|yeah|yep|yup|no|nope|nah|ok(?:ay)?|sure|fine|go|do|please|thanks?|thank you|continue|proceed|both|neither|either|whatever)\b/i;
/** A choice is said in a few words; a longer reply is a message of its own. */
const REPLY_WORDS = 12;
/** A reason names at least this many content terms after the option ("this is a big change"). */
const REASON_TERMS = 2;
/** How much of the agent's question the line carries. */
const QUESTION_CHARS = 200;

function spoken(record: ChunkRecord): boolean {
  return (
    (record.role === 'user' && record.pasted === undefined) ||
    (record.role === 'assistant' && !record.text.startsWith('[thinking]'))
  );
}

/**
 * One decision line per user reply that picks an option the agent's question offered: the
 * agent's last spoken message before the reply ends on a question offering alternatives, and
 * the reply is short, opens on words of that message (the option), not on "yes"/"no", and goes
 * on to give its reason.
 */
export function choiceSignals(records: readonly ChunkRecord[]): Signal[] {
  const out: Signal[] = [];
  records.forEach((record, i) => {
    if (record.role !== 'user' || !spoken(record)) return;
    const reply = record.text.trim().replace(/\s+/g, ' ');
    const words = reply.split(' ');
    if (words.length > REPLY_WORDS || NO_CHOICE.test(reply) || /\?\s*$/.test(reply)) return;
    let j = i - 1;
    while (j >= 0 && !spoken(records[j]!)) j -= 1;
    const asked = records[j];
    if (asked?.role !== 'assistant') return;
    const question = sentences(asked.text.trim()).at(-1)?.trim() ?? '';
    if (!OFFERS_CHOICE.test(question) || !ASKS_CHOICE.test(question) || NEXT_TASK.test(question))
      return;
    // The option picked: the reply's opening words up to its first pause ("minor, this is …");
    // what follows is its reason. A bare option ("hooks" to "Ready to move on to hooks.md,
    // custom-tools.md, or rpc.md?") picks the next task, and says no reason a reader could weigh.
    const pause = /[,.;:!—–]|\s-\s|\sbecause\s/.exec(reply);
    if (pause === null) return;
    const option = termSet(reply.slice(0, pause.index));
    const offered = termSet(asked.text);
    if (option.size === 0 || ![...option].every((t) => offered.has(t))) return;
    if (termSet(reply.slice(pause.index)).size < REASON_TERMS) return;
    const clipped =
      question.length > QUESTION_CHARS
        ? `${question.slice(0, QUESTION_CHARS).trimEnd()}…`
        : question;
    out.push({
      text: `User decision: ${reply} (asked: "${clipped}")`,
      family: 'decision',
    });
  });
  return out;
}

/**
 * A user's suggestion put as a question: an alternative offered ("… or maybe a custom tool like
 * Claude's task tool?", "how about a lockfile?", "why not cache it on disk?"). "What about X?"
 * is left out: it is as often a reminder of something missed as a proposal. "Why not"/"how about"
 * open a proposal only at a sentence's start with an action or a thing after them ("Why not cache
 * it on disk?", "How about a lockfile?", "How about we add a lockfile?"); elsewhere they ask about a fact ("The tests pass
 * locally, why not in CI?", "Why not?").
 */
const SUGGESTS =
  /\b(?:or maybe|or perhaps|what if we|maybe we (?:could|should))\b[^?]*\?\s*$|(?:^|[.!?;:]\s+)(?:how about (?:(?:we|you|i) \p{L}+|a|an|\p{L}+ing)\s|why not (?:just )?(?!(?:in|on|at|for|with|from|to|by|of|here|there|now|yet|then|this|that|it|so|as|also|both|all|anymore|when|where|there)\b)\p{L}+\s)[^?]*\?\s*$/iu;
/** A suggestion is said in a sentence or two. */
const SUGGESTION_CHARS = 300;

/**
 * One decision line per suggestion of the user's that the agent's turn then carries out (an
 * edit reported done, an edit of a file the suggestion names, or a commit: carriesOut). Trigger:
 * the user proposes an alternative in a question and the agent adopts it without a word of
 * agreement a cue could catch ("Spawn pi instances via tmux. or maybe custom tool similar to
 * claude's task tool?", then the README edited). Why: the question form kept it out of every
 * decision reader, and as an open question it was answered. Outcome: "User decision: <text>".
 */
export function adoptedSuggestionSignals(records: readonly ChunkRecord[]): Signal[] {
  const out: Signal[] = [];
  records.forEach((record, i) => {
    if (record.role !== 'user' || !spoken(record)) return;
    const text = record.text.trim().replace(/\s+/g, ' ');
    if (text.length > SUGGESTION_CHARS || !SUGGESTS.test(text) || isHollowSpeech(text)) return;
    const turn = records.slice(i + 1);
    const end = turnEndIn(turn);
    const done = end < 0 ? turn : turn.slice(0, end);
    if (!carriesOut(done)) return;
    // The work done is the suggestion's: the turn names one of its content terms. A fix of
    // something else that happens to follow the question adopts nothing.
    const proposed = termSet(text);
    const worked = termSet(done.map((r) => r.text).join(' '));
    if (![...proposed].some((t) => worked.has(t))) return;
    out.push({ text: `User decision: ${text}`, family: 'decision' });
  });
  return out;
}
