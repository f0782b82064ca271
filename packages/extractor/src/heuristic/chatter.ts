import { isNarration } from './cues.js';

/*
 * Units that are never a line of memory, whatever they mention: the agent narrating its next
 * step, cheering, thinking aloud, a table row, a heading alone, a lead-in cut off at its colon,
 * a sentence whose subject is a "this"/"it" the reader cannot see, raw tool output. They are
 * dropped, not discounted: a discounted chatter line full of question terms still outscored
 * real findings (issue 11: 41 % noise).
 */
const CHEER =
  /^(?:perfect|great|excellent|good|awesome|nice|oh no|ah|done|beautiful|you're (?:absolutely )?right|i apologi[sz]e|sorry)\b[!.,: ]/i;
const THINKING_ALOUD = /^(?:actually|hmm|wait|ok|okay|so|alright),?\s+(?:let|i|we|looking|the)\b/i;
const STEP = /^(?:now|next|first|then|finally),?\s+(?:i|we|let)\b/i;
const I_WILL = /^i(?:'ll| will| am going to|'m going to) /i;
const DANGLING =
  /^(?:this|it|that|these|those|they)(?:'s| is| was| seems| should| needs| looks| means| will)\b/i;
const TABLE_ROW = /^\|.*\|\s*$/;
const BARE_HEADING = /^(?:#+\s.*|\*\*[^*]+:?\*\*:?)\s*$/;
const RAW_OUTPUT =
  /^(?:\s*\d+→|\s*[{[]\s*"|\s*at \S+ \(|\s*\$ |\s*➜ |```|[+-]?\s*\d+\s+[-+]\s|\S+\.\w+\(\d+,\d+\): (?:error|warning)\b)|Command running in background with ID|[─│┌┐└┘├┤┬┴┼]{2,}/;
// A summary's empty answer ("None mentioned", "No open items identified"), the repository's
// state ("On `main` branch", "Latest release: v2.1"), or a report that the work is done: true
// when written, and nothing a later reader needs. "None of the tools are installed" states a
// finding: "none" and "nothing" are empty only alone or with "yet", "so far" or "mentioned".
const NOTHING =
  /^(?:(?:none|nothing|n\/a)(?:\s+(?:yet|so far|at (?:this|the moment)|(?:was |were )?(?:mentioned|identified|noted|reported|found|pending|remaining|outstanding)))?\s*[.!]?\s*$|no (?:\w+ ){0,3}?(?:mentioned|identified|noted|reported|found|pending|remaining|outstanding)\b)/i;
const REPO_STATE =
  /^(?:on `?[\w./-]+`? branch\b|(?:latest|current) (?:release|version)\s*:|(?:the )?(?:working tree|branch) (?:is )?(?:clean|up to date))/i;
const WORK_DONE =
  /^all (?:\w+ ){0,3}?(?:changes|fixes|tasks|items|work|requests?|todos?)\b[^.]*?\b(?:have been|were|are(?: now)?) (?:implemented|completed|done|addressed|made|applied|fixed)\b/i;
// A check that passes, said alone: the state of one moment, not how the project works.
const CHECK_PASSES =
  /^(?:`[^`]+`|the (?:build|tests?|checks?|lint\w*|type ?check)|all (?:tests|checks|code))\s+(?:now\s+|still\s+)?(?:pass(?:es)?|succeeds?|is green|compiles?)\b(?:\s+\w+ly)?\s*[.!]?$/i;
// A command or identifier alone ("`bd close spotter-gqc.6`"): a step of a list whose item above
// says what it is for; on its own it states nothing.
const BARE_CODE = /^`[^`]+`[.;]?$/;
// A step that only runs commands ("Run `mix compile --warnings-as-errors`", "Run `mix test` and
// `mix credo --strict`"): a pending task's checklist, which says what to type, not what is left
// to find out or why. "Run `npm test` before every commit" says more, and stays.
const BARE_RUN =
  /^(?:run|rerun|re-run|execute)\s+`[^`]+`(?:\s*(?:,|and|then|&&|,\s*then)\s*`[^`]+`)*\s*(?:again\s*)?[.;]?$/i;
// A line that stops on a comma or an article was cut mid-sentence by the transcript's layout.
const CUT_OFF = /(?:,|\b(?:the|a|an|and|or|to|of|with))\s*$/i;

/** True when a unit of prose is process chatter or layout, never knowledge. */
export function isChatter(unit: string): boolean {
  return isChatterBut(unit, false);
}

/**
 * `isChatter`, save that a sentence whose subject is a "this"/"it" may pass: in a reply the
 * pronoun is the question's subject ("how was markdown rendering added?" — "It's using the
 * `marked` package, not vendored").
 */
function isChatterBut(unit: string, dangling: boolean): boolean {
  const text = unit.trim();
  if (text.startsWith('[thinking]')) return true;
  if (/:\s*$/.test(text)) return true;
  return (
    isNarration(text) ||
    [
      CHEER,
      THINKING_ALOUD,
      STEP,
      I_WILL,
      ...(dangling ? [] : [DANGLING]),
      TABLE_ROW,
      BARE_HEADING,
      RAW_OUTPUT,
      CUT_OFF,
      BARE_CODE,
      BARE_RUN,
      NOTHING,
      REPO_STATE,
      WORK_DONE,
      CHECK_PASSES,
    ].some((p) => p.test(text))
  );
}

const SENTENCE_BREAK = /(?<=[.!?])\s+(?=[\p{Lu}\p{N}"'`([])/u;

/**
 * A unit with its chatter sentences taken out ("Perfect! The build passes. Let me commit." →
 * "The build passes."); empty when nothing but chatter is left.
 */
export function withoutChatter(unit: string): string {
  const kept = unit.split(SENTENCE_BREAK).filter((sentence) => !isChatter(sentence));
  return kept.join(' ').trim();
}

/**
 * What a reply says to a question, for telling whether it answers: its sentences without the
 * chatter, but with those that speak of the question's subject as "it" ("It's using the
 * `marked` package").
 */
export function replyContent(unit: string): string {
  const kept = unit.split(SENTENCE_BREAK).filter((sentence) => !isChatterBut(sentence, true));
  return kept.join(' ').trim();
}
