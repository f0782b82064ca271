import { questionIntents, STATED_CAUSING } from './cues.js';

/**
 * Which kind of finding a line is, read from what it says rather than from a cue word that
 * happens to occur in it: an open question asks something the session did not answer or marks
 * work as still pending; a bug states a symptom (something failed, broke, was missing, wrong
 * or refused) or its fix; a tool failure is a bug of a run (a command, build, compile, test
 * run, migration failing, or an error quoted from a run's output); a decision states a choice
 * of how the system is built — the rest.
 */
export type LineKind = 'decision' | 'cause' | 'tool' | 'open';

/** The kinds the router assigns, so a question that asks for none of them is never routed. */
export const LINE_KINDS: readonly LineKind[] = ['decision', 'cause', 'tool', 'open'];

/**
 * Asking: a sentence that ends in a question mark, or a statement that something was asked or
 * is still to be settled ("whether … is unresolved", "was never diagnosed", "is not started").
 * An unsettled marker outranks a symptom: a failure whose cause nobody found is an open question.
 */
const ASKS = /\?(?:\s|["'`)\]]|$)/u;
const UNSETTLED =
  /(?:^|\s)whether\b|\b(?:unresolved|unexplained|unanswered|undecided|unclear|unknown|tbd|pending|in[_ -]progress|(?:was|were|is|are) (?:raised|asked)|(?:was|were|is|are)? ?never (?:diagnosed|decided|found|explained|resolved|answered|settled|fixed)|not (?:yet )?(?:started|done|decided|diagnosed|explained|resolved|answered|settled|implemented|investigated)|still (?:needs?|open|to|has to|unknown|unclear)|remains? (?:to|open|unclear|unknown)|left open|is open|^(?:still )?needs? to\b|\(open\b|blocked by|needs?: )/iu;
/** A to-do marker ("TODO: …"); "todo" alone is as often a name (a TODO app). */
const TODO = /\bTODO:/u;

/**
 * A symptom: a run that failed or threw, a thing broken, missing, wrong, refused or stale, two
 * parts that disagree; a thing said to be outdated ("the tests are outdated": what broke is
 * that they still expect the old form; only said of it, "replaced the outdated client" names
 * what a choice replaced). Naming an error mechanism ("error handling", "returns an error") is a
 * design, not a symptom; a negated one ("never crashes", "no longer throws") is a choice made,
 * and one denied ("passed with no errors") a success.
 */
const SYMPTOM =
  /\b(?:fail(?:s|ed|ing|ures?)?|errors?|exceptions?|threw|throws?|throwing|crash(?:es|ed|ing)?|broke|broken|breaks?|bugs?|regressions?|missing|wrong(?:ly)?|incorrect(?:ly)?|mismatch(?:es|ed)?|discrepanc(?:y|ies)|invalid|warn(?:s|ed|ing|ings)?|refused|refuses|rejected|stale|undefined|unsupported|not supported|cannot|can't|couldn't|could not|unable|blocked on|hangs?|hung|stuck|timed? out|timeouts?|not found|ignored|ignores|leak(?:s|ed|ing)?|(?:does|do|did)(?:n't| not) (?:work|start|match|compile|exist|update|support)|not working|not set correctly|no such|(?:is|are|was|were|looks?|seems?) (?:now |still |already |badly |too )?(?:outdated|out of date|obsolete))\b/giu;
const NOT_SYMPTOM =
  /^(?:errors?|exceptions?)[ -](?:handling|handler|recovery|reporting|messages?|boundar(?:y|ies)|codes?|types?|classes?)\b/iu;
/** An error a design returns or raises on purpose ("returns a typed error") is a choice. */
const DESIGNED =
  /\b(?:return(?:s|ed|ing)?|raise[sd]?|rais(?:es|ing)|emit(?:s|ted)?|gives?|reports?) (?:an? |the )?(?:\w+ )?$/iu;
const NEGATED =
  /\b(?:never|no longer|no|not|without|nor|won't|doesn't|don't|instead of|0|zero)\s+(?:\w+\s+)?$/iu;

/** A fix or cause stated: the line reports a bug's resolution even without its symptom's words. */
const RESOLVED = new RegExp(
  String.raw`\b(?:fixed|fixes|fixing|root[- ]cause|caused by|${STATED_CAUSING}|caused (?:the|this|that|these|those|it|them|an?)|the (?:issue|problem|bug|culprit) (?:was|is)|worked around|workaround)\b`,
  'iu',
);
/** "fixes #288" in a feature's commit names the issue it closes, not a symptom. */
const ISSUE_REFERENCE = /\bfix(?:es|ed)?\s+#\d+/giu;

/**
 * A request to the agent: the line opens (after a filler such as "ok," or "now") with a verb in
 * the imperative. Its "fixed" is a step asked for ("run the tests after you fixed them up",
 * "commit and push, comment 'fixed in the next release'"), not a fix it reports.
 */
const REQUEST =
  /^(?:(?:ok(?:ay)?|alright|all right|right|good|great|now|then|so|and|please|pls)[,.!]?\s+)*(?:please\s+)?(?:run|commit|push|add|make|update|write|create|check|use|do|try|remove|change|comment|go|rerun|re-run|build|test|revert|merge|rebase|release|publish|tag|open|close|file|ship)\b/iu;

/**
 * A passage in double quotes: words someone is to say or post ('comment with a concise "Thanks
 * for reporting, fixed in the next release"'), whose "fixed" reports no fix. Bounded.
 */
const QUOTED_SPAN = /"[^"\n]{1,200}"|“[^”\n]{1,200}”/gu;

/** Whether the line states a symptom (not negated, not an error mechanism) or a bug's fix. */
function statesBug(text: string): boolean {
  const plain = text.replace(ISSUE_REFERENCE, '');
  if (RESOLVED.test(plain.replace(QUOTED_SPAN, '""')) && !REQUEST.test(plain.trim())) return true;
  return symptoms(plain).length > 0;
}

/**
 * A run named as what failed: a compile, build, test, migration, type check, lint, install, a
 * command or tool call, a script or a DSL; a spec or syntax only as what failed ("syntax error";
 * "syntax highlighting" is a feature). A bug in the product ("users couldn't start the
 * agent", "the component wasn't padded") names none of them, and a changelog's fix neither.
 */
const RUN =
  /\b(?:compil(?:e|es|er|ers|ation|ing)|builds?|tests?|test (?:runs?|suites?)|(?:specs?|syntax) (?:errors?|fail\w*)|migrations?|type[- ]?check(?:s|er|ing)?|lint(?:er|ing)?|tsc|install(?:s|ation)?|commands?|tool calls?|scripts?|DSL)\b/giu;
/**
 * What a run does when it fails: fails, breaks ("broke the build"), errors, crashes, throws,
 * times out, panics, is refused or unsupported, does not work. A thing missing, wrong or broken near a
 * word like "build" or "test" is a product's bug ("the Install button is missing", "a wrong
 * total on the build status page", "the test for empty input is missing"), not a run that failed.
 */
const FAILURE =
  /^(?:fail(?:s|ed|ing|ures?)?|broke|errors?|exceptions?|threw|throws?|throwing|crash(?:es|ed|ing)?|timed? out|timeouts?|panic(?:s|ked|king)?|refused|refuses|unsupported|not supported|cannot|can't|couldn't|could not|unable|hangs?|hung|not found|no such|(?:does|do|did)(?:n't| not) (?:work|start|compile|exist|support))\b/iu;
/**
 * A run's failure reported under the run as a label ("LiveView test: missing secret_key_base"):
 * what the run said is missing or wrong is why it failed.
 */
const RUN_LABEL =
  /\b(?:tests?|builds?|compil(?:e|ation)|migrations?|install(?:ation)?)(?: (?:run|step))?:\s+(?:missing|wrong|invalid|stale|undefined)\b/iu;
/** How near (in characters) a symptom must be to the run it is said of. */
const NEAR = 48;
/**
 * An error quoted from a run's output: a failure word followed by the message in quotes
 * ('failed with "src/x.ts(3,5): error TS2322 …"', 'Crash "Invalid hex color"'), an error code
 * (TS2322, ENOENT) or an exit status. A paraphrase ("threw an error before …") is not one, nor
 * a message named as a thing to change ('Change the error "Not found" to name the file').
 */
const QUOTED =
  /(?<!\b(?:the|this|that|its|an?) )\b(?:errors?|crash(?:es|ed)?|fail(?:s|ed|ure)|exceptions?|panic(?:ked)?|threw)(?: with)?:?\s+["“`]/iu;
const ERROR_CODE =
  /\berror [A-Z]{1,4}\d{3,5}\b|\b(?:TS|CS)\d{4}\b|\bE(?:NOENT|ACCES|PERM|ADDRINUSE|CONNREFUSED)\b|\b(?:exit(?:ed)? (?:with )?(?:code|status) [1-9]\d*|non-zero exit)\b/u;

/**
 * A warning of a lint run: a linter named near its warning ("Credo warned about length/1 in a
 * guard", "ESLint warnings about unused imports"). A linter's warning is what its run fails on
 * (`mix credo --strict`, `eslint --max-warnings 0`) and is mended by changing the code it
 * names: the tool-failures question's error and working form. A warning of the product ("the
 * settings page warns before deleting") names no linter. Bounded windows.
 */
const LINTER =
  /\b(?:lint(?:er|ers|ing)?|credo|eslint|clippy|rubocop|pylint|flake8|ruff|shellcheck|stylelint)\b/giu;
/**
 * A warning reported ("warned", "warnings"); "warn"/"warns" configure a rule ("Set `no-console`
 * to warn", "a rule that warns on floating promises"): lint set up, not a run that failed.
 */
const WARNING = /^(?:warned|warnings?)\b/iu;

/** The symptoms the line states, each at its offset: not negated, not an error mechanism. */
function symptoms(plain: string): number[] {
  const out: number[] = [];
  for (const match of plain.matchAll(SYMPTOM)) {
    const at = match.index;
    if (NOT_SYMPTOM.test(plain.slice(at))) continue;
    const before = plain.slice(Math.max(0, at - 24), at);
    if (NEGATED.test(before) || DESIGNED.test(before)) continue;
    out.push(at);
  }
  return out;
}

/**
 * The working form of a run stated as what mended it: a command in backticks (a program name
 * and its arguments: a space inside, no call parentheses) that resolved or fixed the bug
 * ("`mix compile --force` resolved compilation ordering issues", "the stale build was fixed
 * by `npm ci`"); the run must be named, so a bare "fixed by `npm ci`" is a bug of another kind.
 * A function named as the fix ("calling `invalidate()` fixed it") is a product's repair.
 */
const COMMAND = /`[a-z][\w.:/-]*(?: [^`\n()]{1,100})`/u.source;
const WORKING_FORM = new RegExp(
  String.raw`${COMMAND}\s+(?:resolved|fixed|fixes|solved|cured)\b|\b(?:resolved|fixed|solved) (?:it )?(?:by|with) (?:running )?${COMMAND}`,
  'iu',
);

/**
 * Whether a bug line is a tool failure: an error quoted from a run's output, a failure said
 * near a run it names ("Compile errors for missing X", "the migration uses ALTER TABLE MODIFY
 * (unsupported in SQLite)", "the sed command didn't work"), or a run's trouble mended by the
 * command it names (a stale build that `mix compile --force` resolved: the working form the
 * tool-failures question asks for, though no failure verb is said).
 */
export function isToolFailure(text: string): boolean {
  const plain = text.replace(ISSUE_REFERENCE, '');
  if (QUOTED.test(plain) || ERROR_CODE.test(plain) || RUN_LABEL.test(plain)) return true;
  if (WORKING_FORM.test(plain) && plain.search(RUN) >= 0) return true;
  const runs = [...plain.matchAll(RUN)].map((match) => match.index);
  const linters = [...plain.matchAll(LINTER)].map((match) => match.index);
  return symptoms(plain).some(
    (at) =>
      (FAILURE.test(plain.slice(at)) && runs.some((run) => Math.abs(run - at) <= NEAR)) ||
      (WARNING.test(plain.slice(at)) && linters.some((lint) => Math.abs(lint - at) <= NEAR)),
  );
}

/** Whether the line asks something or marks something as still to be done or settled. */
export function isUnsettled(text: string): boolean {
  return ASKS.test(text) || UNSETTLED.test(text) || TODO.test(text);
}

/** A cause said of a symptom in plain words ("the crash came from a null theme"). */
const CAUSE_WORD = /\b(?:because|due to|came from|comes from|traced to|caused)\b/iu;
/** A question that doubts the clause before it: another cause offered, or a tag question. */
const DOUBTS = /^(?:or\b|(?:is|was|could|isn't|wasn't|couldn't) it\b|right\b)/iu;
/** Where a statement ends and the next one, a question, begins. */
const CLAUSE_ENDS = ['. ', '! ', '; ', ' — ', ' – ', ' - '];

/**
 * A cause or fix stated, then a question in a clause of its own ("The crash came from a null
 * theme — is the light theme affected too?", "The issue was a stale cache; should the CI clear
 * it?"). Trigger: the line ends in "?". Why: the finding a reader can use is the cause; the
 * question after it asks about something further, and routed open, the cause was lost from the
 * bugs note. Outcome: the line is a bug. Still open: a symptom whose cause is asked ("The upload
 * fails behind the proxy. Any idea why?"), a cause that is itself the question ("Is the crash
 * caused by the cache?") and a line marked unsettled anywhere.
 */
function causeThenQuestion(text: string): boolean {
  if (UNSETTLED.test(text) || TODO.test(text)) return false;
  const asked = text.search(ASKS);
  if (asked < 0) return false;
  const lead = text.slice(0, asked);
  const cut = Math.max(...CLAUSE_ENDS.map((end) => lead.lastIndexOf(end)));
  if (cut <= 0) return false;
  const stated = text.slice(0, cut).replace(ISSUE_REFERENCE, '');
  if (REQUEST.test(stated.trim())) return false;
  // A question that puts the stated cause itself in doubt ("— or is it the clock skew?",
  // "— right?") leaves it unsettled.
  if (DOUBTS.test(text.slice(cut).replace(/^[\s.!;—–-]+/u, ''))) return false;
  return RESOLVED.test(stated) || (symptoms(stated).length > 0 && CAUSE_WORD.test(stated));
}

/** Whether the line states a cause or a fix ("caused the crash", "because", "fixed by"). */
export function statesCause(text: string): boolean {
  const plain = text.replace(ISSUE_REFERENCE, '');
  return RESOLVED.test(plain.replace(QUOTED_SPAN, '""')) || CAUSE_WORD.test(plain);
}

/** Whether the line states a symptom: not negated, not an error mechanism. */
export function statesSymptom(text: string): boolean {
  return symptoms(text.replace(ISSUE_REFERENCE, '')).length > 0;
}

/**
 * The kind of finding a line is: open, bug — a tool failure (`tool`) or another (`cause`) — or
 * decision, in that order of precedence; a cause stated before a question is a bug
 * (causeThenQuestion).
 */
export function routeLine(text: string): LineKind {
  if (isUnsettled(text) && !causeThenQuestion(text)) return 'open';
  if (statesBug(text) && (!choiceForReason(text) || workaroundOfRun(text)))
    return isToolFailure(text) ? 'tool' : 'cause';
  return 'decision';
}

/** A program and its arguments in backticks, the program captured. Bounded. */
const COMMAND_RUN = /`([a-z][\w.-]{0,30}) [^`\n]{1,100}`/giu;
/**
 * The words just before a command that put it on the rejected side of a choice ("instead of
 * `npm install`", "Replaced `jest --coverage` with …", "switched from `yarn add`"). Read on the
 * few characters before the command only.
 */
const REJECTED_BEFORE = /\b(?:instead of|rather than|replac(?:ed|es|ing)|from|over)\s+$/iu;
const REJECTED_CHARS = 16;

/**
 * A failing run's own working form chosen for its failure ("Used `npm install --legacy-peer-deps`
 * instead of a plain install because npm install failed with ERESOLVE"). Trigger: a choice whose
 * reason is a run that failed (a failure near a run word, an error code or quoted error), and
 * whose chosen side is a command in backticks of the program the reason names. Why: the program
 * had no working alternative to choose between; its failure forced another form of the same
 * run, which is what the tool-failures question asks for (the error and the working form), not
 * how the system is built. Outcome: the line is a bug, a tool failure by its reason. Still a
 * decision: another program chosen ("Switched to `pnpm install` because npm install kept
 * failing" — a choice between tools that work), a command chosen over a library that broke, a
 * choice with no command in backticks, a command of the failing program named only on the
 * rejected side ("We use `pnpm install` instead of `npm install` because npm install failed",
 * "Replaced `jest --coverage` with vitest because jest failed with …").
 */
function workaroundOfRun(text: string): boolean {
  if (text.length > CHOICE_CHARS) return false;
  const reason = text.search(REASON);
  if (reason < 0) return false;
  const said = text.slice(reason);
  if (!isToolFailure(said)) return false;
  // The programs the reason's own clause names: a clause after it may name the chosen program
  // as what works ("…, and pnpm's strict hoisting avoids it").
  const clause = said.slice(0, said.search(CLAUSE_END));
  const named = new Set(clause.toLowerCase().split(/[\s`'"(),;:]+/u));
  return [...text.slice(0, reason).matchAll(COMMAND_RUN)].some(
    (command) =>
      named.has(command[1]!.toLowerCase()) &&
      !REJECTED_BEFORE.test(text.slice(Math.max(0, command.index - REJECTED_CHARS), command.index)),
  );
}

/**
 * A choice said with the alternative it passed over ("X instead of Y", "switched to X"). "Instead
 * of" is a choice only after a word of choosing in its clause ("Themes use tokens instead of
 * chalk"): without one it says what happened ("Requests went to staging instead of production").
 */
const CHOICE =
  /\b(?:(?:we|i|use[sd]?|using|prefer(?:s|red)?|keep|kept|store[sd]?|pin(?:s|ned)?)\b[^,;.]{0,60}?\b(?:instead of|rather than)|in favou?r of|switch(?:ed|es|ing)? (?:\w+ )?to|replac(?:ed|es|ing) [^,;.]{1,40}? with|chose|opted for|went with|(?:we|you) should (?:default|fall back|use|keep|pin|store|prefer)\b)\b/iu;
/**
 * Where a reason begins; it runs to the end of its clause. "Since" of time ("since then", "since
 * last week", "since v2") gives none.
 */
const REASON = /\b(?:because|since(?!\s+(?:then|last|yesterday|v?\d))|given that)\b/giu;
/**
 * A failure of the rejected alternative ("chalk broke", "npm install kept failing"). A state word
 * ("the env var was missing", "the include glob was wrong") is a defect of the system: a bug.
 */
const REASON_FAILURE = /^(?:broken|leak(?:s|ed|ing)?|stuck)\b/iu;
/** Past these a line is no one choice with its reason, and reading it would cost n². */
const CHOICE_CHARS = 2000;
const CHOICE_REASONS = 8;
const CLAUSE_END = /[,;.!?](?:\s|$)|\s[—–]\s|$/u;

/**
 * A choice whose every symptom is its reason ("Themes use explicit tokens instead of chalk
 * because chalk broke under NO_COLOR", "Switched to pnpm since npm install kept failing").
 * Trigger: the symptom words of the reason made the line a bug. Why: the line says how the
 * system is built and which alternative was rejected, the decisions question's own words; the
 * failure is the rejected alternative's, and nothing in the system is broken or mended. Outcome:
 * a decision. Still a bug: a fix said ("fixed the crash by using X instead of Y because Y
 * throws"), a symptom outside the reason ("the build failed because X is used instead of Y"),
 * a reason with no choice beside it, a reason that names a state ("because the env var was
 * missing") rather than a failure, an "instead of" with no one choosing ("Requests went to
 * staging instead of production because …"), a time "since" ("Switched to Vite; since then the
 * build has failed"), and a line too long to be one choice (CHOICE_CHARS, CHOICE_REASONS).
 */
function choiceForReason(text: string): boolean {
  if (text.length > CHOICE_CHARS) return false;
  const plain = text.replace(ISSUE_REFERENCE, '');
  if (RESOLVED.test(plain.replace(QUOTED_SPAN, '""'))) return false;
  const reasons: Array<[number, number]> = [];
  for (const match of plain.matchAll(REASON)) {
    if (reasons.length === CHOICE_REASONS) return false;
    const from = match.index;
    reasons.push([from, from + plain.slice(from).search(CLAUSE_END)]);
  }
  const inReason = (at: number) => reasons.some(([from, to]) => at > from && at < to);
  const found = symptoms(plain);
  if (found.length === 0 || !found.every(inReason)) return false;
  const failure = (at: number) =>
    FAILURE.test(plain.slice(at)) || REASON_FAILURE.test(plain.slice(at));
  if (!found.every(failure)) return false;
  const outside = reasons.reduceRight(
    (line, [from, to]) => line.slice(0, from) + ' '.repeat(to - from) + line.slice(to),
    plain,
  );
  return CHOICE.test(outside);
}

/**
 * A question about runs that failed: tool calls or their failures, or commands, builds, compiles,
 * test runs or migrations said to fail ("failed builds", "which commands failed"). A run named
 * otherwise is no such question: "What errors happened, and which commands fixed them?" asks
 * for every bug, the commands being the fix.
 */
const RUN_NOUN = String.raw`(?:commands?|builds?|compil\w*|test runs?|migrations?)`;
const ASKS_RUNS = new RegExp(
  String.raw`\b(?:tool (?:calls?|failures?|errors?)|(?:failed|failing|broken) ${RUN_NOUN}|${RUN_NOUN}\b[^.?;]{0,40}?\b(?:fail\w*|broke\w*|errored|crash\w*))\b`,
  'iu',
);
/** A question about bugs at large, beyond the runs that failed. */
const ASKS_BUGS = /\b(?:bugs?|root[- ]causes?|regressions?|incidents?|outages?|defects?)\b/iu;

/**
 * The kinds a standing question asks for, by its wording: a question about bugs or failures
 * takes bug lines (tool failures among them), one about which runs failed (tool calls,
 * commands, builds) only the tool failures, one about decisions the choices, one about open
 * questions the unsettled. Empty for a question that asks for none (a factual one): such a
 * question is not routed.
 */
export function routedKinds(question: string): ReadonlySet<LineKind> {
  const intents = questionIntents(question);
  const kinds = new Set<LineKind>();
  if (intents.has('decision')) kinds.add('decision');
  if (intents.has('cause') || intents.has('error')) {
    if (!ASKS_RUNS.test(question) || ASKS_BUGS.test(question)) kinds.add('cause');
    kinds.add('tool');
  }
  if (intents.has('open')) kinds.add('open');
  return kinds;
}
