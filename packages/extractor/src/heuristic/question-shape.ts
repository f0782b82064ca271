/*
 * What a factual question's answer looks like: one fact, or several gathered across a conversation.
 */

/**
 * The present perfect with a named subject, asking for everything that has happened so far:
 * "has" or "have" before a capitalised word, right after the question word ("Where has Melanie
 * camped?"), after a plural noun it asks for ("What books has Melanie read?", "What LGBTQ+
 * events has Caroline attended?") or after "How many" and its noun ("How many times has
 * Melanie gone to the beach?"). Not a singular noun ("What movie has Nate seen?": one), "How
 * long has …" (a duration), nor "has Tim been writing / been able to" (one ongoing activity).
 * Case-sensitive, so that the name is a capital; bounded: anchored at the start, at most six
 * words before the verb, each a run of non-spaces, and no quantifier nested in another.
 */
const PERFECT =
  /^\s*(?:[Ww]hat|[Ww]here|[Ww]hich|[Ww]ho|[Hh]ow many(?:\s+\S+){1,3})(?:(?:\s+(?:kinds?|types?|sorts?)\s+of)?(?:\s+\S+)?\s+(?:\S+[^\s'’s]s|people|children))?\s+(?:has|have)\s+\p{Lu}[\p{L}'’]*(?![\p{L}'’])(?!\s+been\s+(?:\S+ing|able)\b)/u;
/** What two people share. */
const GATHERED = /\b(?:both|in common)\b/i;

/**
 * Whether a factual question asks for several things that may each be said in a different
 * session: what two people "both" did or have "in common", or what someone has done so far
 * (the present perfect: "What books has Melanie read?", "How many times has Melanie gone to the
 * beach?"). Not so: one event ("What book did Melanie read last week?", "How many people came
 * to the party?"), a habit said in the present ("What pets does Melanie have?"), a question
 * about no one ("What has changed?": the subject must be named).
 */
export function asksForSeveral(question: string): boolean {
  return GATHERED.test(question) || PERFECT.test(question);
}
