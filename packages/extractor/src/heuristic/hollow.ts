import { termSet } from './text.js';

/*
 * What a person said that holds no finding a reader could act on: venting at the agent, or a
 * fragment that points at what the reader of the note cannot see ("no, leave that as it was",
 * "and the second one?"). A correction or a question is kept as a line only when it names
 * enough of its own subject to be read alone.
 */

// Abuse and insult: what the speaker felt, never what the project is.
const ABUSE =
  /\b(?:fuck\w*|shit\w*|crap\w*|damn\w*|wtf|stupid\w*|idiot\w*|moron\w*|dumb\w*|bullshit|retard\w*)\b/gi;
// A code identifier, file or command names its subject even in few words.
const NAMES_CODE = /`[^`]+`|\b[\w-]+\.[a-z]{1,5}\b|\b[a-z]+[A-Z]\w*|\w_\w/;
const MIN_TERMS = 3;
const MIN_TERMS_NAMING_CODE = 2;
// Venting that also asks or corrects must say that much more to be worth a line.
const MIN_TERMS_ABUSIVE = 5;

// An exclamation that carries only the speaker's mood ("omfg, use…").
const EXCLAMATION = /\b(?:omfg|omg|ffs|jfc|ugh+)\b[,!.]*/gi;

/**
 * A person's words without the abuse and exclamations in them: the rule a user shouted at the
 * agent ("omfg use fucking rgb values, no indices!") is kept as what it says, not how.
 */
export function withoutAbuse(text: string): string {
  return text
    .replace(ABUSE, ' ')
    .replace(EXCLAMATION, ' ')
    .replace(/\s{2,}/g, ' ')
    .trim();
}

/** True when a piece of text is abuse with too little else in it to be a finding. */
export function isVenting(text: string): boolean {
  return text.search(ABUSE) >= 0 && termSet(text.replace(ABUSE, ' ')).size < MIN_TERMS_ABUSIVE;
}

/**
 * True when a user's correction or question is venting or a fragment, not a readable finding.
 * Only for what becomes a `User decision:` or `Open:` line: a short chat turn judged as prose
 * ("I got a puppy") is still a fact of its conversation.
 */
export function isHollowSpeech(text: string): boolean {
  if (text.search(ABUSE) >= 0) return isVenting(text);
  return termSet(text).size < (NAMES_CODE.test(text) ? MIN_TERMS_NAMING_CODE : MIN_TERMS);
}
