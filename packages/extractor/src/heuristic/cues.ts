/**
 * Cues of evidence in agent-session prose, by family, each strong or weak. A standing
 * question's wording picks which families count fully (its intents); the others count a
 * little. A strong cue of an asked-for family ("the root cause was", "we decided", "still
 * unresolved", "a discrepancy between": two parts disagreeing is a bug found; "the prints were
 * causing the artifacts", "a stale lockfile caused the drift": a cause said of its symptom) is
 * evidence by itself; a weak one ("fixed", "because") only adds to relevance.
 */
export type CueFamily = 'cause' | 'decision' | 'open' | 'error' | 'rule';

export const CUE_FAMILIES: readonly CueFamily[] = ['cause', 'decision', 'open', 'error', 'rule'];

/**
 * Families that count only where the question asks for them. A standing rule ("always run the
 * checks", "prefers surgical edits") is what someone must know before working on a project, but
 * to a question about bugs or decisions "always" and "never" are everyday words: counted there,
 * they would open the gate on ordinary prose.
 */
export const ASKED_ONLY: ReadonlySet<CueFamily> = new Set(['rule']);

export type CueStrength = 'strong' | 'weak';

export interface Cue {
  family: CueFamily;
  strength: CueStrength;
}

/**
 * A cause stated as what was causing a symptom ("the prints were causing the artifacts", "the
 * retry wrapper is what was causing the duplicates"), as a regular-expression source for an
 * alternation (flags `iu`); the cause cue here and the line router both use it. Not a cause
 * stated: a question ("What is causing this crash?", "Is this causing the failure?"), doubt ("not
 * sure yet what is causing the hang", "whether the cache is causing it") or a negation ("the
 * cache was not causing the slowdown"). The doubt is looked for only in the clause before (at
 * most 40 characters, no comma or stop between: "After checking if the cache was warm, I found
 * the stale index was causing the misses" states a cause), the question mark only in the same
 * clause. Both windows are bounded: the look-behind is retried at every word boundary, and an
 * unbounded one made a 64,000-character text with no match take seconds.
 */
export const STATED_CAUSING = String.raw`(?<!\b(?:not sure|unsure|unclear|wonder(?:ing)?|whether|if|find out|figure out|(?:don't|do not) know|no idea)\b[^.;,!?]{0,40})(?<!(?<!\b(?:is|was|are|were)\s)\bwhat\s)\b(?:was|were|is|are) (?:(?!(?:not|never|no)\b)\w+ )?causing\b(?![^.;!?]*\?)`;

/**
 * A cause said as a thing's bad state after "because" ("The export ran against the replica
 * because the connection string was wrong", "… since the env var was missing"), for the strong
 * cause cue. Trigger: a symptom with its cause in plain words, no "root cause" said: only the
 * weak "because" counted, and the line stayed below the gate. Why: a state named wrong, missing,
 * stale or invalid is the defect, and the clause before is what it did; a choice's reason names
 * a quality ("because it is faster"), not a defect. Outcome: a strong cause cue. Not one: a guess
 * in the same clause before it, within 30 characters ("I think it's because the cache was
 * stale", "it could be that the deploy failed because …", "whether because …", "check if it
 * failed because …", a clause opened by "if"), the cause itself denied ("The 401 wasn't because
 * the token was expired", "not just because …": the denial right before "because"; a symptom
 * said with "not" is still one, "the token was not refreshed because the cache was stale"), an
 * act put off ("skipping this test for now because
 * the fixture is missing"), "because nothing was missing", "wrong to …" (a judgement), a
 * subject longer than 60 characters, and behaviour said to be meant (NOT_DEFECT). The
 * look-behind is tried only where "because" or "since" starts (the look-ahead before it), so a
 * long text costs one bounded window per such word.
 */
const HEDGED_BEFORE = String.raw`(?<!\b(?:think|guess|suspect|assume|believe|seems?|might|may|could|maybe|perhaps|probably|possibly|likely|whether|is it|was it|for now|for the moment|(?:see|check|test|verify|know|ask|wonder|sure|find out|figure out) if)\b[^.;!?]{0,30})(?<!(?:^|[,:;(]\s*|\b(?:and|but|or|so|even)\s+)if\b[^.;!?]{0,30})(?<!(?:\bnot|n't)(?:\s+(?:just|only|simply|merely|solely|really|entirely|necessarily))?\s+)`;
const BAD_STATE_CAUSE = new RegExp(
  String.raw`\b(?=because |since )${HEDGED_BEFORE}(?:because|since) (?!(?:nothing|none|no)\b)[^.;,!?]{1,60}? (?:was|were|is|are|had been|got) (?:still |already |set |left )?(?:wrong|missing|stale|invalid|incorrect|misconfigured|outdated|expired|unset|empty|corrupt(?:ed)?)\b(?! to\b)`,
  'iu',
);
/**
 * Behaviour said to be meant: the state is how it should be, not a defect ("that's deliberate",
 * "as the spec requires", "the behaviour the ticket asks for").
 */
const NOT_DEFECT =
  /\b(?:deliberate(?:ly)?|intended|intentional(?:ly)?|by design|as designed|(?:is|was|it's|that's|as) expected|expected behaviou?r|what we want|(?:as|what) the (?:spec|ticket|issue|design|contract|docs) (?:requires|asks for|specifies)|behaviou?r the (?:spec|ticket|issue|design|contract|docs) (?:requires|asks for|specifies))\b/iu;

/** Whether the sentence says a thing's bad state as the cause of what it did. */
function statesBadState(sentence: string): boolean {
  return BAD_STATE_CAUSE.test(sentence) && !NOT_DEFECT.test(sentence);
}

const CUES: Record<CueFamily, { strong: RegExp; weak: RegExp }> = {
  cause: {
    strong: new RegExp(
      String.raw`\b(?:root[- ]cause|caused by|${STATED_CAUSING}|caused (?:the|this|that|these|those|it|them|an?)|because of|the (?:issue|problem|bug|culprit|reason) (?:was|is)|turned out|the fix (?:was|is)|solution (?:was|is)|which (?:is|was) why|discrepanc(?:y|ies)|mismatch(?:es|ed)?|out of sync|inconsisten(?:t|cy|cies)|(?:doesn't|don't|do not|does not|didn't|did not) match)\b`,
      'iu',
    ),
    weak: /\b(?:because|due to|fixed|fixes|resolved|workaround|so that)\b/i,
  },
  decision: {
    strong:
      /\b(?:decided|decision|went with|chose|opted|trade-?offs?|in favou?r of|settled on|rejected)\b/i,
    weak: /\b(?:go(?:ing)? with|choose|alternatives?|prefer(?:red)?|instead of|rather than)\b/i,
  },
  open: {
    strong:
      /\b(?:unresolved|open question|(?:not sure|unclear) (?:whether|if|how|why|what|which)|still (?:unknown|open|unclear)|remains to be|unanswered|undecided|tbd)\b/i,
    weak: /\b(?:not sure|unclear|todo|follow[- ]up|needs? (?:more )?investigation|don't know)\b/i,
  },
  error: {
    strong: /\b(?:traceback|segfault|panic(?:ked)?|exception|crash(?:ed|es)?)\b/i,
    weak: /\b(?:error|failed|failing|failure|timed? out|timeout|refused|denied|not found|cannot|can't|broken)\b/i,
  },
  rule: {
    // A breaking change is what someone must know before working on the code: callers change.
    // One denied ("no breaking changes", "no API breaking changes", "not a breaking change",
    // "non-breaking") is none; "any breaking changes" asks for them ("flag any breaking changes").
    strong:
      /\b(?:always|never|must(?:n't)?|prefers?|preferred|conventions?|(?<!\b(?:no|not an?|isn't an?|without|zero) (?:\w+ )?|\bnon-|\bnon )breaking changes?|(?:release|review|deploy\w*|build|publish\w*) process|workflow|procedure|guidelines?)\b/i,
    weak: /\b(?:process|required|requires|by default)\b/i,
  },
};

const INTENTS: Record<CueFamily, RegExp> = {
  cause:
    /\b(?:bugs?|root[- ]causes?|causes?|fail\w*|errors?|incidents?|broke\w*|fix\w*|isolat\w*|debug\w*|flak\w*|outages?|regressions?)\b/i,
  decision:
    /\b(?:decisions?|decid\w*|architect\w*|design\w*|chose|choices?|alternatives?|trade-?offs?|approach\w*|rejected)\b/i,
  open: /\b(?:unresolved|open questions?|questions?|unknowns?|todos?|left open|pending)\b/i,
  error: /\b(?:errors?|failures?|exceptions?|crash\w*|tool failures?)\b/i,
  rule: /\b(?:know before|should (?:someone|one|i|we|a newcomer) know|conventions?|rules?|guidelines?|how to work|before working)\b/i,
};

/**
 * A person named as the question's subject: a capitalised word (a capital then lower-case
 * letters only) in the possessive ("Joanna's laptop") or right after an auxiliary ("did Gina",
 * "does John", "Would Caroline"). Identifiers and acronyms (TypeScript, MCP, PGlite) have
 * capitals inside and are no one's name; a project or tool a standing question merely mentions
 * ("bugs found in Poimen", "decisions about Vite") is no subject.
 */
const NAME = /^\p{Lu}\p{Ll}+[?,.!]?$/u;
const POSSESSIVE_NAME = /^\p{Lu}\p{Ll}+['’]s[?,.!]?$/u;
const AUXILIARY =
  /^(?:do|does|did|is|was|are|were|has|have|had|will|would|can|could|should|might|may)$/i;

function namesAPerson(question: string): boolean {
  const words = question.split(/\s+/);
  return words.some(
    (word, i) =>
      i > 0 &&
      (POSSESSIVE_NAME.test(word) || (NAME.test(word) && AUXILIARY.test(words[i - 1] ?? ''))),
  );
}

/**
 * The cue families a question asks about. Empty for plain factual questions.
 *
 * Trigger: a question naming a person ("When did Gina design a limited collection?", "Why did
 * Jon decide to start his studio?", "When did Joanna's laptop crash?"). Why: it asks for facts
 * about them, and its cue words are its topic — a design, a decision, a convention, a charity
 * cause — not a kind of evidence; read as intents, every session where they decide or design
 * anything opened the gate (on LoCoMo's tuning half, 24 such questions made 166 false updates
 * to 23 right ones). A standing question of a project asks for a kind of evidence across it
 * and names no one. Outcome: it is a factual question, judged by its terms and held answers.
 */
export function questionIntents(question: string): Set<CueFamily> {
  const out = new Set<CueFamily>();
  if (namesAPerson(question)) return out;
  for (const family of CUE_FAMILIES) if (INTENTS[family].test(question)) out.add(family);
  return out;
}

/**
 * A choice stated with the alternative it passed over: "Pi relies on CLI tools invoked via bash
 * rather than MCP", "Footer now uses `dim` instead of `muted`". "Instead of" alone is a weak cue
 * (it is everywhere in prose); said as how a part is, not by the speaker about their own step
 * ("I'll read it rather than guess"), nor hedged ("it might be loading light instead of dark"),
 * nor proposed ("the loader should catch this instead of crashing"), it is a decision. "We" then
 * a verb of how the project is kept ("We use `pnpm install` instead of `npm install` because …",
 * "We pin Node 20 rather than 22") states the team's choice; "we" then another verb ("We can
 * read it instead of guessing") is a step or a proposal.
 */
const ALTERNATIVE = /\b(?:instead of|rather than)\b/i;
const NOT_STATED =
  /^(?:i|i'm|i'll|we(?! (?:use[sd]?|keep|kept|store[sd]?|pin(?:s|ned)?|prefer(?:s|red)?)\b)|we'll|let's|you|please|if|maybe|perhaps)\b|\b(?:might|would|could|should|may|bet|option|options|either)\b/i;

function statesChoice(sentence: string): boolean {
  return (
    (ALTERNATIVE.test(sentence) && !NOT_STATED.test(sentence.replace(/^[^\p{L}`]+/u, ''))) ||
    (REASONED_CHOICE.test(sentence) && !TRIVIAL_CHOICE.test(sentence))
  );
}

/**
 * A reasoned choice that is no decision of the project's: one made for the spot at hand ("We
 * use the helper here because …"), or for a reason that only says the tool or the writer liked
 * it better ("because it is simpler", "because prettier complained": the stop-33 reviewer's
 * "Replaced the tab with spaces because prettier complained.", "We use the helper here because
 * it is simpler."). A reason with content of its own ("because it is simpler to ship as one
 * file") stays. Bounded.
 */
const TRIVIAL_CHOICE =
  /\bhere\b[^.;!?\n]{0,40}?\b(?:because|since|so that)\b|\b(?:because|since)\s+(?:it(?:'s|\s+is|\s+was)\s+(?:simpler|easier|cleaner|shorter|nicer|neater|better|more readable)|(?:the\s+)?(?:prettier|eslint|biome|linter|formatter|lint|type-?checker|tsc)\s+(?:complained|said so|says so|wanted it|asked for it|flagged it|required it))\s*[.!]?\s*$/iu;

/**
 * A choice stated with its reason: the team's own way of keeping the project ("We keep SQLite
 * for the cache because Postgres would add a server to every install", "We pin Node 20 since
 * …"), or one thing replaced by another ("Replaced `jest --coverage` with vitest because jest
 * failed with …"), then "because", "since" or "so that" in the same sentence. Trigger: such a
 * line carried only the weak "because" and reached no note. Why: a choice made and why is what
 * the decisions question asks, rejected option or not. Outcome: a strong decision cue. Not a
 * step or a proposal ("we can", "we should", "I'll replace …": the sentence must open with "we"
 * and a verb of how the project is kept, or with the replacing verb in the past). Bounded.
 */
const REASONED_CHOICE =
  /(?:^|[.:;]\s+)(?:we\s+(?:now\s+|still\s+|also\s+)?(?:use[sd]?|keep|kept|store[sd]?|pin(?:s|ned)?|prefer(?:s|red)?|ship|picked|stay(?:ed)? on|stick with|stuck with|moved to|switched to)\b|(?:replaced|switched|moved|migrated|swapped)\b[^.;!?\n]{1,60}?\b(?:with|to|for)\b)[^.;!?\n]{1,100}?\b(?:because|since|so that)\b/iu;

/** The cues present in a sentence, in family order, each at its strongest. */
export function cuesIn(sentence: string): Cue[] {
  const out: Cue[] = [];
  for (const family of CUE_FAMILIES) {
    if (
      CUES[family].strong.test(sentence) ||
      (family === 'decision' && statesChoice(sentence)) ||
      (family === 'cause' && statesBadState(sentence))
    )
      out.push({ family, strength: 'strong' });
    else if (CUES[family].weak.test(sentence) || (family === 'open' && isOpenQuestion(sentence)))
      out.push({ family, strength: 'weak' });
  }
  return out;
}

/**
 * A question that reads as a real open question: long enough to be about something, and not
 * the agent offering its next step ("Want me to…?", "Should I proceed?").
 */
function isOpenQuestion(sentence: string): boolean {
  if (!/\?\s*$/.test(sentence) || sentence.split(/\s+/).length < 6) return false;
  return !isOffer(sentence);
}

/**
 * The agent offering its next step or asking leave to go on ("Want me to…?", "Should I
 * proceed?"); "Want to file an issue?" is "Do you want to…?" with its subject dropped.
 */
export function isOffer(sentence: string): boolean {
  return /\b(?:want me to|should i|shall i|would you like|do you want|can i|may i|ready to|proceed|go ahead)\b|^(?:\[thinking\]\s*)?want to\b/i.test(
    sentence,
  );
}

/** Assistant narration of its next tool step ("Let me read the file") is not evidence. */
export function isNarration(sentence: string): boolean {
  return /^(?:\[thinking\]\s*)?(?:(?:now|okay|ok|good|great|perfect|alright|first|next|then|so)[,.!]?\s+)?(?:let me|let's|i'll|i will|i'm going to|i need to|we need to|i should|i can see|i see|looking at)\b/i.test(
    sentence,
  );
}
