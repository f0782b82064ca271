/*
 * Lines of the kind a decisions or bugs question does not ask for, whatever cue words they
 * carry: an edit of the project's documentation ("Clarified that …", "Fixed the incorrect claim
 * about …", "Updated the example to use X instead of Y") records how the docs were worded, not
 * how the system is built or what broke in it; an option put on the table ("The alternative is
 * …", "Or we accept …") is a proposal, not a choice made. Both read as findings by their cue
 * words ("fixed", "instead of") and each opened the gate for a chunk that said nothing new.
 */

import { cuesIn } from './cues.js';
import { isToolFailure, statesCause, statesSymptom } from './route.js';

/** One heading-like label before the line's own words ("Error handling: Fixed …"). Bounded. */
const LABEL = String.raw`(?:[^:\n]{1,60}:\s+)?`;

/**
 * What is edited when the docs are: the docs themselves, a claim or wording in them, an example.
 * Not a typo: one in a config key or a script is a bug.
 */
const DOC_OBJECT = String.raw`(?:docs?|documentation|readme|changelog|claims?|wording|examples?|docstrings?|jsdoc|guides?|tutorials?)`;

/**
 * A verb that only ever edits prose: rewording something ("documented" is as often an
 * adjective: "Root cause: documented behaviour was wrong"); or clarifying a statement ("Clarified
 * that …", "Clarified it has no timeout") or a document named in the same phrase. "Clarified the
 * retry logic" clarifies code.
 */
const DOC_VERB = new RegExp(
  String.raw`^${LABEL}(?:clarif(?:ied|ies)(?=\s+(?:that|it|how|when|what|why|whether|where)\b|[^.,;:\n]{0,60}?\b(?:${DOC_OBJECT}|sections?|paragraphs?|comments?)\b)|reword(?:ed|s)|rephras(?:ed|es))\b`,
  'iu',
);

/** An edit verb, present or past ("Update full-compaction example", "Fixed the claim"). */
const EDIT = String.raw`(?:fix(?:e[sd])?|correct(?:s|ed)?|updat(?:e[sd]?|ing)|clean(?:s|ed)? up|rewr(?:ite|ites|ote|itten)|reorganiz(?:e[sd]?)|polish(?:e[sd])?|tid(?:y|ied))`;
/**
 * The edit's object must be the document: at most three words between (none a preposition or
 * "when", which would make the document a place the bug is in: "Fixed the crash when the README
 * is missing"), and the document word must end the phrase ("Fixed the comment parser" edits a
 * parser, "Updated the README renderer" a renderer).
 */
const DOC_EDIT = new RegExp(
  String.raw`^${LABEL}${EDIT}\s+(?:(?!(?:in|of|for|on|to|by|when|with|from|after|before)\b)\S+\s+){0,3}${DOC_OBJECT}(?=$|[.,:;()]|\s+(?:about|to|that|so|for|in|with|section|sections|page|pages|and)\b)`,
  'iu',
);

/**
 * A documentation file: prose by its extension (not .txt, as often data or config: "Refined the
 * retry policy in config.txt"), or a docs folder itself ("site/docs/"). The
 * extension ends the path ("config.md.ts" is code), and a file of code under docs/
 * ("docs/build.sh", "src/docs/render.ts") is code.
 */
const DOC_PATH = String.raw`\x60?(?:[\w.-]+\/)*(?:docs?\/|[\w.-]+\.(?:md|mdx|rst|adoc))(?![\w.\/-])\x60?`;
/**
 * Something added to, created in, removed from or moved within a documentation file, said either way round
 * ("A dedicated section and diagram were added to `docs/hooks.md`", "The code block in
 * `docs/hooks.md` was removed"). Bounded: at most 40 characters between the verb and the file.
 */
const DOC_FILE_EDIT = new RegExp(
  String.raw`\b(?:added|removed|moved|deleted|rewritten|updated|created|refined)\b[^.;\n]{0,40}?\b(?:to|from|in|into)\s+${DOC_PATH}|\b(?:in|to|from)\s+${DOC_PATH}\s+(?:was|were|is|are)\s+(?:added|removed|moved|deleted|rewritten|updated)\b`,
  'iu',
);

/**
 * A report headed by the document it changed ("Changes to custom-tools.md: Added a comparison
 * table"). A document named as the subject of a fact ("skills.md: Skills are directories with
 * only SKILL.md required") is no edit: an edit verb must follow the label.
 */
const DOC_LABEL_EDIT = new RegExp(
  String.raw`^(?:changes?\s+(?:to|in)\s+)?${DOC_PATH}:\s+(?:added|removed|rewrote|rewritten|updated|clarified|reworded|moved|deleted|expanded|shortened|trimmed)\b`,
  'iu',
);
/**
 * What a document is like, said of the document ("Current README philosophy is verbose",
 * "README.md has duplicate sections"): the docs' state, not the system's. Only such a verdict:
 * "Docs are generated from the types by typedoc" states how the project works.
 */
const DOC_STATE = new RegExp(
  String.raw`^(?:(?:the|current|our|this)\s+){0,2}(?:readme(?:\.md)?|docs|documentation|changelog(?:\.md)?|[\w-]+\.mdx?)(?:\s+[\w-]+){0,2}\s+(?:is|are|was|were|has|have|had|looks?|seems?)\s+(?:(?:still|too|quite|very|now|rather|an?|the)\s+){0,2}(?:verbose|outdated|out of date|wrong|incorrect|missing|duplicated?|unclear|terse|inconsistent|stale|bloated|confusing)\b`,
  'iu',
);

/**
 * A part only a document has, added to it ("Introduced a legend for message abbreviations",
 * "Added a diagram of the queue states", "Drew a figure of the retry flow"): prose or a drawing
 * of it, not the system. Not a legend or figure of the product's own screens ("Added a legend to
 * the usage chart", "a caption under each thumbnail component"): a UI word within the phrase
 * makes it a feature. "Note", "section" and "table" are as often parts of the code or the data
 * ("Added a note that the cache is configurable", "a config section", "a users table"): not
 * here. The part heads its phrase: "a diagram renderer", "a legend field", "a figure cache" are
 * code; and what it is added to is a document ("a footnote to the install guide"): "a legend to
 * the status enum", "captions to the video player" add to the system (the stop-33 reviewer's
 * lines). Bounded.
 */
const DOC_PART_ADD = new RegExp(
  String.raw`^${LABEL}(?:introduced|added|included|inserted|drew|drawn)\s+(?:an?\s+|the\s+)?(?:(?!(?:to|in|for|on|of|with)\b)[\w-]+\s+){0,2}?(?:legends?|diagrams?|captions?|figures?|illustrations?|callouts?|footnotes?|table of contents|admonitions?)(?=\s*(?:$|[.,;:()]|(?:of|for|under|showing|with|that|and)\b|(?:to|in|on|into)\s+(?:(?:the|an?|our|its)\s+)?(?:[\w-]+\s+){0,2}?(?:${DOC_OBJECT}|diagrams?|figures?|illustrations?|chapters?)\b|(?:to|in|on|into)\s+${DOC_PATH}))(?![^.;\n]{0,60}\b(?:charts?|graphs?|plots?|dashboards?|components?|widgets?|views?|screens?|pages?|ui|thumbnails?|maps?)\b)`,
  'iu',
);

/**
 * An edit under a label that names a drawing of the docs ("Compaction Process Visuals: Corrected
 * the indexing and bracket alignments", "Queue diagrams: Fixed the arrow labels"): the label says
 * what was edited, the drawing, not the system. Not a drawing of the product's own screens
 * ("Usage chart visuals: Fixed …"): a UI word in the label makes it a feature. The edit's object
 * is a part of a drawing (arrows, labels, numbering, boxes, …): "Retry diagrams: Improved the
 * backoff so it caps at 30 s" edits the system under that label. Bounded.
 */
const DOC_DRAWING_EDIT = new RegExp(
  String.raw`^(?![^:\n]{0,60}\b(?:charts?|graphs?|plots?|dashboards?|components?|widgets?|views?|screens?|ui|thumbnails?|maps?)\b)[^:\n]{0,60}\b(?:visuals|diagrams?|figures?|illustrations?|legends?)\s*:\s+(?:[^:\n]{1,40}:\s+)?(?:${EDIT}|adjust(?:s|ed)?|align(?:s|ed)?|refin(?:e[sd]?)|tweak(?:s|ed)?|improv(?:e[sd]?)|redr(?:ew|awn))(?:\s+(?!(?:so|because|since|which|to|for)\b)[^\s.;:]+){0,5}?\s+(?:arrows?|labels?|numbering|alignments?|box(?:es)?|colou?rs?|layout|spacing|legends?|captions?|nodes?|edges?|lines?|text|fonts?|brackets?|indexing|shapes?|titles?|headings?|annotations?)\b`,
  'iu',
);

/**
 * A wording edit by its purpose: a change made "for clarity" or "for readability" ("Corrected
 * \"ignored on reload\" to \"not sent to LLM\" for clarity") is made for the reader of the text,
 * not for the system's behaviour. Only after an edit verb at the line's start (under a label), of
 * a text: quoted words, a docs word (a heading, a section, the README) or a part of a drawing
 * (arrows, boxes, alignments) before the purpose;
 * "Renamed the env var to MEM_ROOT for clarity" renames code, and "for clarity with the other
 * services" is the system's. Bounded: the purpose within 120 characters of the verb.
 */
const DOC_FOR_CLARITY = new RegExp(
  String.raw`^${LABEL}(?:${EDIT}|chang(?:e[sd]?)|renam(?:e[sd]?)|reword(?:ed|s)?)\b(?=[^.;\n]{0,120}?(?:["\u201c]|\b(?:${DOC_OBJECT}|headings?|sections?|paragraphs?|sentences?|phrases?|arrows?|alignments?|box(?:es)?|brackets?|annotations?|legends?|captions?)\b))[^.;\n]{0,120}?\bfor (?:clarity|readability|legibility)\b(?!\s+(?:with|between|across|among)\b)`,
  'iu',
);

/**
 * An edit of the docs said in the passive, under up to two labels ("Docstring Enhancement: The
 * docstring for \x60findModel\x60 was improved to list …", "The README's install section was
 * rewritten"): the document is the subject. Bounded: at most 60 characters between the document
 * word and the verb.
 */
const DOC_PASSIVE_EDIT = new RegExp(
  String.raw`^(?:[^:\n]{1,60}:\s+){0,2}(?:the|its|our)\s+(?:[^\s:]{1,60}\s+)?${DOC_OBJECT}\b[^;:\n]{0,60}?\b(?:was|were|has been|have been)\s+(?:improved|updated|expanded|clarified|rewritten|reworded|corrected|enhanced|polished|renamed)\b`,
  'iu',
);

const DOC_EDITS = [
  DOC_VERB,
  DOC_EDIT,
  DOC_FILE_EDIT,
  DOC_LABEL_EDIT,
  DOC_PART_ADD,
  DOC_DRAWING_EDIT,
  DOC_FOR_CLARITY,
  DOC_PASSIVE_EDIT,
];
/**
 * A clause of its own after the edit, with a subject that acts ("The README was updated: we
 * dropped Node 18 instead of polyfilling fetch, because …", "Created a migration plan in
 * docs/plan.md: we move to Postgres because …"): the line goes on to say what was decided or
 * done, and is read for that.
 */
const OWN_CLAUSE = /(?:[:;]|\s[—–])\s*(?:we|I|they|the team)\s+(?:now\s+|also\s+)?\w+/u;

/** A fix verb with no "by"/"with" after it: an edit named, not how a bug was mended. */
const BARE_FIX = /\bfix(?:e[sd]|ing)?\b(?!\s+(?:by|with)\b)/giu;

/**
 * Whether a line reports an edit of the documentation rather than of the system. Not when the
 * rest of the line states a bug: a symptom with its cause or fix ("Fixed the README example that
 * crashed on startup because the import path was wrong"), or a symptom after the edit as a label
 * ("Fix build docs: vitest config was broken") — the edit is then how the bug was mended. A list
 * of doc edits under a label ("Cleaned up documentation: theme.md (added missing tokens)") stays.
 */
export function editsDocumentation(text: string): boolean {
  const line = text.trim();
  for (const pattern of DOC_EDITS) {
    const match = pattern.exec(line);
    if (match === null) continue;
    const rest = `${line.slice(0, match.index)} ${line.slice(match.index + match[0].length)}`;
    if (OWN_CLAUSE.test(line.slice(match.index + match[0].length))) return false;
    // A fix as the label ("Fix build docs: …"); a list of edits after "Cleaned up
    // documentation: …" names what was wrong in the docs.
    const after = line.slice(match.index + match[0].length).trimStart();
    const labelled = /\b(?:fix|correct)/iu.test(match[0]) && after.startsWith(':');
    // A bare "fixed broken links" is one more edit of the docs; "fixed by …" tells how a bug was.
    const explained = statesCause(rest.replace(BARE_FIX, ''));
    return !(statesSymptom(rest) && (labelled || explained));
  }
  return false;
}

/**
 * Whether a line judges a document ("Current README philosophy is verbose"). No decision; but a
 * defect of the docs ("README.md has duplicate sections") is a bug a person would have fixed, so
 * the caller asks this only for a question that takes no bugs.
 */
export function judgesDocument(text: string): boolean {
  return DOC_STATE.test(text.trim());
}

/**
 * A piece of a code block: a line holding a fence glued to text or opening on a language tag
 * ("reason: \"start\" | \"switch\" The docs have:\x60\x60\x60typescript"), or a fence alone, was
 * cut out of one and reads as neither code nor prose. A fence named in a sentence, with spaces
 * round it ("we wrap the config in \x60\x60\x60 fences"), is a word of the sentence.
 */
const FENCE = /\S\x60{3}|\x60{3}\w|^\x60{3,}$/u;

export function cutFromCode(text: string): boolean {
  return FENCE.test(text.trim());
}

/**
 * A line whose subject is a pronoun for what the reader of the note cannot see ("Now it just
 * uses the theme system instead of chalk", "This now takes a callback"): no finding alone. Only
 * with a verb of what code does: "It is important that …" is an expletive "it".
 */
const PRONOUN_SUBJECT =
  /^(?:(?:now|so|and),?\s+)?(?:it|this|that|they)\s+(?:(?:now|just|also|only|still)\s+){0,2}(?:uses?|takes?|calls?|returns?|reads?|writes?)\b/iu;

/** A bug named after what the sentence said of it ("… — that was the bug"). */
const NAMES_BUG = /\b(?:was|is) the (?:bug|cause|culprit|issue|problem|root cause)\b/iu;

/**
 * Whether the line's subject is a bare pronoun ("it", "this", "that", "they"). Not when the
 * sentence states a cause: "This returns undefined when the cache is cold, which caused the
 * crash" explains a bug, and "It uses X because Y broke" gives a decision its reason.
 */
export function pointsAway(text: string): boolean {
  const line = text.trim();
  return PRONOUN_SUBJECT.test(line) && !statesCause(line) && !NAMES_BUG.test(line);
}

/**
 * An option offered: "The alternative is …", "Another option would be …", "Alternatively, …",
 * "Or we …". Not, on any of these openings, an alternative said to be rejected or chosen in the
 * same sentence ("The alternative is rejected: it needs a server", "Alternatively, we went with
 * PGlite …", "Or we just keep the log, which is what we decided"): that is a decision, or half of
 * one. Bounded: the choice verb is looked for within 120 characters.
 */
const OFFERED =
  /^(?:(?:the|an|another|one)\s+(?:other\s+)?(?:alternative|option)\s+(?:is|would be|could be|here is)\b|alternatively\b|or\s+(?:we|you|I|just)\s)(?![^.]{0,120}?\b(?:rejected|chosen|chose|ruled out|dropped|picked|taken|went with|decided|switched|settled on|used)\b)/iu;

/** Whether a line puts an option on the table rather than stating a choice made. */
export function offersOption(text: string): boolean {
  return OFFERED.test(text.trim());
}

/**
 * A step of a plan the agent lays out ("Add `apiKeys?` to the `Settings` interface", "In
 * `sdk.ts`, modify `defaultGetApiKey()` to …"): an edit said in the imperative, what it means to
 * do, not a choice made — the user may still turn it down, and the work done is reported in the
 * past tense ("Added …") or committed. Only for the agent's own words: a person's imperative is a
 * request or a rule, and a summary's "Add breaking changes to CHANGELOG.md" a rule of the project.
 */
const PLAN_STEP =
  /^(?:(?:[-*+]|\d+[.)])\s+)?(?:in\s+`[^`\n]{1,80}`,\s+)?(?:add|modify|create|change|update|remove|replace|move|rename|extract|refactor|introduce|implement|wire|pass)\s+(?:[^\s`]+\s+){0,5}`/iu;

/**
 * Whether the agent's line is a step of its plan: an imperative edit (a list item or not) with a
 * piece of code named within its first few words.
 */
export function plansStep(text: string): boolean {
  return PLAN_STEP.test(text.trim());
}

/**
 * The agent's own text edit going wrong ("The sed command didn't work because of the multiline
 * format", "the replacement did not match every instance"): how the agent typed a change, not a
 * bug of the project. A script of the project named so ("the sed script in the release job
 * fails") is not this: only the editing tool itself, as the subject.
 */
const EDIT_MISHAP =
  /^(?:now,?\s+)?(?:the\s+(?:issue|problem)\s+is\s+(?:that\s+)?)?(?:the|my|our)\s+(?:sed|awk|str_replace|replacement|search[- ]and[- ]replace|regex replace)(?:\s+(?:command|call|edit))?\s+(?:didn't|did not|doesn't|does not|failed|couldn't|could not|missed)\b/iu;

/**
 * What the misfire left broken in the project ("…, so the old API is still used and login
 * crashes", "…, which is the bug"): a bug of the project, whatever typed it. Bounded.
 */
const CONSEQUENCE =
  /\b(?:so|which|and)\b[^.]{0,120}?\b(?:crash\w*|fail\w*|broke\w*|break\w*|wrong|bugs?|errors?)\b/iu;

/** Whether a bug-like line is the agent's own editing tool misfiring, and nothing broken by it. */
export function editMishap(text: string): boolean {
  const line = text.trim();
  const match = EDIT_MISHAP.exec(line);
  return match !== null && !CONSEQUENCE.test(line.slice(match[0].length));
}

/**
 * An agent's message that ends by asking leave to go ahead ("Want me to implement this?",
 * "Shall I proceed?"): what it lays out is a proposal awaiting an answer, not a decision made —
 * the choice is made when the user agrees and the work is done, and is read then (the edit, the
 * commit, the changelog). An offer of more work after a report ("Done. Want me to add tests
 * too?") asks about something else, and its report stands.
 */
const ASKS_LEAVE =
  /\b(?:want me to|shall I|should I|do you want me to|would you like me to)\s+(?:go ahead(?:\s+and\s+implement)?|implement|proceed|apply|make (?:these|this|the) changes?|start)(?:\s+(?:it|this|that|these|them|with (?:it|this|that)|the (?:plan|change|changes|approach)))?\s*\?\s*$/iu;
/** A message that reports work already done: its lines are the work, not a proposal. */
const REPORTS_DONE = /^(?:done|fixed|finished|implemented|all (?:set|done))\b/iu;

/** Whether the agent's message is a proposal that ends asking leave to carry it out. */
export function asksLeave(message: string): boolean {
  const text = message.trim();
  return ASKS_LEAVE.test(text) && !REPORTS_DONE.test(text);
}

/**
 * Code brought in line with what the project's other code already does: a port, refactor or
 * rewrite "to match the patterns from the other selector files", a part that "now follows the
 * same patterns as `oauth-selector.ts`". The choices it lists ("uses `Text` components instead
 * of raw strings") were made where that pattern was set; repeating them in one more file decides
 * nothing new. Only a pattern of the code at hand counts (the other, existing, sibling files, a
 * file named in backticks): "restructured the store to follow the event-sourcing pattern" adopts
 * a design and stays a decision. Bounded.
 */
const PRECEDENT = String.raw`(?:the\s+)?(?:other|existing|sibling|neighbou?ring|rest of)\b|\x60[^\x60\n]{1,80}\x60`;
const CONFORMS = new RegExp(
  String.raw`\b(?:port(?:s|ed|ing)?|refactor(?:s|ed|ing)?|rewr(?:ite|ites|ote|itten)|convert(?:s|ed|ing)?|align(?:s|ed|ing)?|updat(?:e|es|ed|ing)|restructur(?:e|es|ed|ing))\b(?:[^.!?\n]|\.(?=\S)){0,80}?\bto (?:match|follow|mirror)\s+(?:the\s+)?(?:(?:exact|same|existing|established)\s+)*(?:patterns?|conventions?|style|structure)\s+(?:of|from|in|used (?:in|by))\s+(?:${PRECEDENT})|\b(?:follows?|uses?) the (?:(?:exact|same|existing)\s+)+(?:patterns?|conventions?|structure) as\s+(?:${PRECEDENT})`,
  'iu',
);

/** Whether the text brings code in line with a pattern the project's other code set. */
export function followsPrecedent(text: string): boolean {
  return CONFORMS.test(text);
}

/**
 * The text without its sentences that state a precedent and route as a decision ("I refactored
 * the auth module to follow the conventions of the existing handlers. We chose JWT …" → "We
 * chose JWT …"): a paragraph read whole keeps the choices beside the precedent.
 */
export function withoutPrecedent(text: string, isDecision: (sentence: string) => boolean): string {
  if (!CONFORMS.test(text)) return text;
  return text
    .split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}"'\x60([])/u)
    .map((sentence) => {
      if (!CONFORMS.test(sentence) || !isDecision(sentence)) return sentence;
      // A clause of its own after the precedent ("…, and switched to JWT because sessions did
      // not scale") is kept; the precedent is not.
      const rest = clauseAfterPrecedent(sentence);
      return rest !== undefined && isDecision(rest) ? rest : '';
    })
    .filter((sentence) => sentence !== '')
    .join(' ');
}

/** A clause after a "," or ";" past the precedent, without its "and", "but" or "then". */
function clauseAfterPrecedent(text: string): string | undefined {
  const match = CONFORMS.exec(text);
  if (match === null) return undefined;
  const clause = /[,;]\s+(?:(?:and|but|then|also)\s+)*([^,;]{12,}.*)$/u.exec(
    text.slice(match.index + match[0].length),
  );
  return clause?.[1]?.trim();
}

/** A list item's marker ("- ", "1. ", "2) "), with its indent. */
const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s+/u;

/**
 * What a statement of precedent in the agent's message covers: a piece of the message (a
 * sentence, a list item, an item with its sub-items) is a choice repeated, not made, when it
 * says the precedent itself, or when it stands in the list that a line saying it introduces
 * ("I've ported `invoice-form.tsx` to match the patterns from the other form files. Here's what
 * changed:" and the items below). A message that ends on the precedent introducing work to come
 * ("… Let me port it to match the patterns from the other forms:") is that plan, all of it.
 * Not its neighbours: "I refactored the auth module to follow the conventions of the existing
 * handlers. We chose JWT instead of server sessions because …" decides JWT, and a sibling list
 * item ("- Ported `billing.ts` to match the patterns …" then "- Chose Stripe webhooks instead of
 * polling because …") stays a decision (the stop-33 reviewer's sentences).
 */
export function precedentCovers(message: string): (piece: string) => boolean {
  const lines = message.split('\n');
  const covered: string[] = [];
  const last = lines.map((line) => line.trim()).filter((line) => line !== '').length - 1;
  let nonBlank = -1;
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    nonBlank += 1;
    if (!CONFORMS.test(line) || !line.trim().endsWith(':')) return;
    if (nonBlank === last) {
      covered.push(...lines.slice(0, i + 1));
      return;
    }
    // The list the line introduces: list items, their indented sub-items and blank lines, up to
    // the next line of prose or heading.
    for (const next of lines.slice(i + 1)) {
      if (next.trim() === '') continue;
      if (!LIST_ITEM.test(next) && !/^\s/u.test(next)) break;
      covered.push(next);
    }
  });
  const parts = covered
    .map((line) => line.replace(LIST_ITEM, '').trim())
    .filter((part) => part.length > 0);
  return (piece: string) => {
    const text = piece.trim();
    return (
      (CONFORMS.test(text) && clauseAfterPrecedent(text) === undefined) ||
      // A piece is one of the items, or an item carrying its list's lead-in ("Here's what
      // changed: Uses `Field` …").
      (text !== '' &&
        parts.some((part) => part.includes(text) || (part.length >= 12 && text.includes(part))))
    );
  };
}

/**
 * Tests the agent added, as an item of its report ("Added comprehensive tests in
 * `truncated-text.test.ts`: width padding, ANSI code preservation, …", "Wrote unit tests for the
 * parser"): the test noun heads the phrase, at most two words after the verb. "Spec" counts only
 * as a test spec ("unit spec", "e2e specs") and "coverage" only as test coverage: "the spec for
 * the plugin API" and "specs under docs/specs/" are design documents. Not this: tests as a thing
 * built ("Added test fixtures under test/fixtures"), or a decision about testing ("Tests run
 * against a real Postgres instead of mocks"). Bounded.
 */
const ADDS_TESTS =
  /^(?:\*\*)?(?:added|adds|wrote|writes|created|extended|expanded|new)\s+(?:[\w-]+\s+){0,2}?(?:tests?|test (?:specs?|cases|coverage|suites?|files?)|(?:unit|integration|e2e|regression) specs?|test coverage)(?:\*\*)?(?=\s*(?:$|[:(,;.]|in\b|for\b|to `|covering\b|under\b))/iu;

/**
 * A second clause after the tests named: a statement of its own ("; the refresh now holds the
 * session lock", "— plugins get a read-only view"), a purpose or reason ("so main stays green",
 * "because …"), a choice ("instead of", "rather than") or a change in behaviour ("now").
 */
const SECOND_CLAUSE =
  /;\s*(?:the|it|its|this|that|these|we|they|and|so|but)\b|\s[—–]\s|\b(?:so|because|since|instead|rather than|now)\b/iu;

/**
 * Whether the line only lists tests added: it is how a fix was checked, not the bug, the fix or
 * a choice of how the system is built. Trigger: a "Fixes Applied" report's last item ("Added
 * comprehensive tests: in `truncated-text.test.ts`: …") took a line of a full bugs note. Still a
 * finding: a test added for a symptom or cause it names ("Added a regression test for the crash
 * on empty input"), and a line that goes on to say something else ("Added tests for the race
 * between refresh and logout; the refresh now holds the session lock").
 */
export function addsTests(text: string): boolean {
  const line = text.trim();
  return (
    ADDS_TESTS.test(line) && !SECOND_CLAUSE.test(line) && !statesSymptom(line) && !statesCause(line)
  );
}

/**
 * An item whose body reports only its status ("System prompt update: - Done, but it's quite
 * terse."): work done, no defect nor choice said. Not this: a label that merely starts with the
 * word ("Done callback fires twice: …"), a `done()` call named ("Cleanup: done() is never called
 * when the stream errors"). Bounded.
 */
const STATUS_DONE =
  /^[^:\n]{1,80}:\s+(?:-\s+)?(?:done|completed|finished)(?:[,.!;]|\s*$|\s+but\b)/iu;

/** The most words a status may add after "done" and still say nothing else ("but it's terse"). */
const STATUS_REST_WORDS = 12;

/** A word that says what is left undone or still wrong ("still fails", "was not added"). */
const UNFINISHED = /\b(?:still|not|never|except|only)\b|n't\b/iu;

/**
 * Whether the line is an item that reports only that its work is done: after "done" at most a
 * short remark that names no finding (no cue, symptom, cause or tool failure, nothing still or
 * not done). Trigger: "Backfill: done, but 312 rows failed with a unique-constraint violation",
 * "Phase 2: done. We keep SQLite for the cache because …" were dropped whole, bug and decision
 * with them.
 */
export function reportsStatus(text: string): boolean {
  const line = text.trim();
  const status = STATUS_DONE.exec(line);
  if (!status) return false;
  const rest = line.slice(status[0].length).trim();
  if (rest === '') return true;
  return (
    rest.split(/\s+/u).length <= STATUS_REST_WORDS &&
    !UNFINISHED.test(rest) &&
    cuesIn(rest).length === 0 &&
    !statesSymptom(rest) &&
    !statesCause(rest) &&
    !isToolFailure(rest)
  );
}

/**
 * A wh- word and an infinitive, and nothing said of it ("When to use skills vs alternatives
 * (AGENTS.md, slash commands, custom tools)", "How to configure the proxy"): a heading, or an
 * item of a list of what a document covers. It names a topic; no clause states a choice made,
 * so its "alternatives" or "vs" is the topic's word, not a decision. A colon or a sentence's end
 * or a dash starts a statement about it ("How to deploy: we push tags, CI builds the image", "When
 * to use Redis vs SQLite — SQLite, since no server"), as a finite
 * verb does ("When to retry is decided by the client"), and the line is read; a file name's dot
 * ("AGENTS.md") ends nothing. Bounded: at most 160 characters.
 */
const TOPIC =
  /^(?:when|how|why|where|what|which|whether) to\s+(?:[^.:;!?\n—–-]|\.(?=\S)|-(?!\s)){1,140}$/iu;
/** A finite verb after the topic says something of it ("When to retry is decided by the client"). */
const SAID_OF = /\b(?:is|are|was|were|should|must|will|would|can|depends?|decided?|decides)\b/iu;

/**
 * An aside that says something of the topic rather than listing what it covers: one phrase (no
 * comma) of three words or more with a reason's word in it ("Why to prefer SQLite over Postgres
 * instead of a hosted DB (no server needed on every install)": the stop-33 reviewer's line).
 * "(cron jobs, webhooks, polling)" lists; "(see the guide)" points.
 */
const ASIDE = /\(([^(),\n]{1,120})\)/gu;
const REASON_WORD =
  /\b(?:no|not|never|cannot|needs?|needed|requires?|required|because|since|without|only)\b|n't\b/iu;

function statesAside(line: string): boolean {
  for (const [, aside] of line.matchAll(ASIDE)) {
    if (aside!.trim().split(/\s+/u).length >= 3 && REASON_WORD.test(aside!)) return true;
  }
  return false;
}

/** Whether the whole line only names a topic, as a heading does. */
export function namesTopic(text: string): boolean {
  const line = text.trim();
  return TOPIC.test(line) && !SAID_OF.test(line) && !statesAside(line);
}

/**
 * What an item that reports its work done goes on to say, when it says more than the status
 * ("Backfill: done, but 312 rows failed with a unique-constraint violation on email" → "but 312
 * rows failed …"): undefined for a line that is no such item, or one that reports only its
 * status (reportsStatus).
 */
export function statusRemainder(text: string): string | undefined {
  const line = text.trim();
  const status = STATUS_DONE.exec(line);
  if (!status || reportsStatus(line)) return undefined;
  const rest = line.slice(status[0].length).trim();
  return rest === '' ? undefined : rest;
}
