import type { ChunkRecord } from '../controller.js';
import { namedFiles } from './carried-out.js';
import { cuesIn, type CueFamily } from './cues.js';
import { editsDocumentation } from './not-findings.js';
import { listItems, namesSomething, termSet } from './text.js';

/** A line the heuristic reads off the structure of a chunk rather than off cue words. */
export interface Signal {
  text: string;
  family: CueFamily;
  /**
   * Joins an update the chunk makes anyway, never opens the gate alone: evidence worth keeping
   * but too common to be charged an update of its own (each update costs the gate's rate).
   */
  rides?: boolean;
  /**
   * Drawn by the heuristic from what the tools did (a failing run and its rerun), not stated by
   * anyone: a summary's "Errors and fixes" bullet, a user's correction or a commit says the bug
   * or the choice in words; a pairing of tool runs is the heuristic's own reading, and weighs less.
   */
  inferred?: boolean;
  /**
   * The family is a guess from the speech act (a user's correction, an agent's concession), not
   * from what the line states: the line router reads its words to decide which note it is for
   * (a correction may state a bug as well as a choice).
   */
  byWords?: boolean;
  /**
   * An open question asked in the chunk's last turn, and by whom: the next chunk may open with
   * the agent's reply to a user's question, or with the user's reply to the agent's.
   */
  lastTurn?: 'user' | 'agent';
  /**
   * An open line led by a failing run the heuristic put before a guess about it (`npm run build`
   * failed with "…"; the build issue might be …): the error is known, the working form is not,
   * so it answers the tool-failures question as well.
   */
  leftFailing?: boolean;
}

/*
 * A compaction summary was written by a model that already sorted the session: a "Key
 * decisions" bullet answers the decisions question, an "Errors and fixes" bullet the bugs
 * question, a "Pending tasks" bullet the open one. The heading names the family; each item of
 * the section is one line, kept whole. A heading that names a design area ("State Management",
 * "Persistence", "Data model") lists how that part was built: its items are choices. "Key
 * Patterns Established" lists the conventions the session settled on, as "Conventions" does; a
 * heading that merely says "patterns" ("Search Patterns Tried", "Anti-patterns Found", "Usage
 * Patterns") lists what was seen or tried, no choice.
 */
const HEADING_FAMILY: readonly [RegExp, CueFamily][] = [
  [/\b(?:errors?|fix(?:es)?|bugs?|problems?|issues? (?:found|fixed)|troubleshoot\w*)\b/i, 'cause'],
  [
    /\b(?:pending|open|next steps?|todos?|remaining|unresolved|outstanding|questions?|current (?:work|state))\b/i,
    'open',
  ],
  [
    /\b(?:decisions?|architect\w*|design|approach|conventions?|(?:key|established|code|coding|design) patterns?|patterns? (?:established|adopted)|preferences?|rules?|constraints?|structure|stack|technolog\w*|configuration|setup|state management|persistence|storage|data (?:model|layer|flow)|schema)\b/i,
    'decision',
  ],
];

/** The family a summary heading answers, or undefined for a descriptive section. */
export function headingFamily(heading: string): CueFamily | undefined {
  return HEADING_FAMILY.find(([pattern]) => pattern.test(heading))?.[1];
}

/** A markdown heading, or a bold line alone (`**Errors and fixes:**`), in an agent's report. */
const HEADING = /^(?:#{1,6}[ \t]+(.+?)[ \t#]*|\*\*([^*\n]{1,80}?):?\*\*:?[ \t]*)$/u;

/**
 * The sections of a record: a summary's own (typed at the source), else the headed parts of an
 * agent's report ("### Project Structure Created", "**Errors fixed:**"). Text before the first
 * heading is returned apart, as prose.
 */
export function recordSections(record: ChunkRecord): {
  sections: readonly { heading: string; text: string; path?: readonly string[] }[];
  lead: string;
} {
  if (record.role === 'summary' && record.sections !== undefined && record.sections.length > 0)
    return { sections: withHeadingPaths(record.text, record.sections), lead: '' };
  if (record.role !== 'assistant' || record.text.startsWith('[thinking]'))
    return { sections: [], lead: record.text };
  const sections: { heading: string; lines: string[] }[] = [];
  const lead: string[] = [];
  for (const line of record.text.split('\n')) {
    const match = HEADING.exec(line.trim());
    const heading = match?.[1] ?? match?.[2];
    if (heading !== undefined)
      sections.push({ heading: heading.replace(/[*_`]/g, '').trim(), lines: [] });
    else (sections.at(-1)?.lines ?? lead).push(line);
  }
  if (!sections.some((section) => headingFamily(section.heading) !== undefined))
    return { sections: [], lead: record.text };
  return {
    sections: sections.map((section) => ({
      heading: section.heading,
      text: section.lines.join('\n'),
    })),
    lead: lead.join('\n'),
  };
}

type Section = { heading: string; text: string; path?: readonly string[] };

/** A heading's words, for matching a section to its line: no markup, numbering or closing colon. */
function headingWords(text: string): string {
  return text
    .replace(/^#{1,6}\s+/u, '')
    .replace(/^\s*(?:[-*+]\s+|\d+[.)]\s*)/u, '')
    .replace(/[*_`]/gu, '')
    .replace(/[\s:#]+$/u, '')
    .trim()
    .toLowerCase();
}

/**
 * The sections of a summary with the headings they sit under. The sources' readers give each
 * section its path; a record whose sections carry none at all (one built by a caller that split
 * the summary itself) has its paths read off its markdown: "### Avoiding Global State" under
 * "## Key Architecture Decisions" is a decision section though its own heading names no kind.
 * Each section is found at the first line after the previous one that carries its heading; its
 * path is the "#" headings open above that line. A section not found keeps what it had.
 */
function withHeadingPaths(text: string, sections: readonly Section[]): readonly Section[] {
  // Trigger: any section with a path. Why: the reader then gave every section its path, and a
  // top-level section's is absent by design; reading the markdown again could only disagree.
  if (sections.some((section) => section.path !== undefined && section.path.length > 0))
    return sections;
  const lines = text.split('\n');
  let cursor = 0;
  return sections.map((section) => {
    const words = headingWords(section.heading);
    let found = -1;
    for (let i = cursor; i < lines.length && found < 0; i++)
      if (words !== '' && headingWords(lines[i]!) === words) found = i;
    if (found < 0) return section;
    cursor = found + 1;
    const open: { level: number; title: string }[] = [];
    // A heading starts at the margin, as the sources' splitter reads it: an indented "# Rebuild"
    // is a comment in a summary's code block, not a heading that sections sit under.
    for (let i = 0; i < found; i++) {
      const match = /^(#{1,6})\s+(.+?)[\s#]*$/u.exec(lines[i]!.trimEnd());
      if (match === null) continue;
      const level = match[1]!.length;
      while (open.length > 0 && open.at(-1)!.level >= level) open.pop();
      open.push({ level, title: match[2]!.replace(/[*_`]/gu, '').trim() });
    }
    const own = /^(#{1,6})\s/u.exec(lines[found]!.trimEnd())?.[1]!.length;
    const above = own === undefined ? open : open.filter((h) => h.level < own);
    return { ...section, path: above.map((h) => h.title) };
  });
}

/**
 * An item of a descriptive section ("Key Technical Concepts", "Files and Code Sections") that
 * states a choice with its reason or its rule: what was preferred over what, what is required,
 * the pattern or default the project settled on. A summary writer lists such choices among the
 * concepts; a plain description ("Beads for issue tracking") names a tool, not a decision.
 */
const CHOICE =
  /\b(?:prefer(?:s|red)?|instead of|rather than|required|requires|must|always|never|established|chosen|chose|convention|pattern|so that|default)\b/i;

/**
 * An item that reports work done or sums up where things stand: it opens on a past-tense verb
 * of making or a done mark, or says what is now so ("The API is now clearer", "The
 * custom-tools.md now has a proper intro …" under "### Current State").
 */
const DONE_REPORT =
  /\b(?:is|are) now\b|\bnow (?:has|have|includes?|contains?|uses|shows|supports|documents|explains|handles|passes)\b|\b(?:has|have) been (?:\w+ly )?(?:added|updated|fixed|written|rewritten|documented|created|implemented|removed|changed|replaced|moved|renamed|resolved|addressed|completed|finished|merged|pushed|committed|verified|installed|configured|refactored|done)\b|^[^\p{L}✅]*(?:✅|(?:added|created|fixed|implemented|updated|removed|changed|replaced|wrote|moved|renamed|installed|configured|verified|confirmed|completed|finished|merged|pushed|committed)\b)/iu;

/**
 * An item that hands work on instead of doing it: an issue, ticket or bead filed for it, a
 * refactor proposed, work deferred. A summary lists "Issue #296 - Created issue documenting
 * OAuth/API key mess" among the completed tasks, but what was completed is the filing: the work
 * it names is still to do, which is what the open-questions question asks.
 */
const DEFERRED =
  /\b(?:created|filed|opened|raised)\s+(?:an?\s+|new\s+|the\s+|(?:github|follow-?up)\s+)*(?:issues?|tickets?|beads?|todos?)\b|\bproposed\s+(?:an?\s+)?(?:refactor\w*|redesign|rewrite|migration)\b|\b(?:deferred|postponed)\b|\bleft for (?:later|a follow-?up)\b/i;

/*
 * An item of a decisions section that edits the docs ("Decision: Detailed diagrams were created
 * in `docs/hooks.md` to illustrate:") is refused with its sub-items (what the diagrams show):
 * they describe a document, and under the section's topic they read as decisions. Not a sub-item
 * that states a choice with its alternative or reason in full ("Rendered with resvg instead of
 * Chromium, because Chromium adds 150 MB to the install"): that is a decision on its own line,
 * whatever its parent was (the stop-33 reviewer's item).
 */
function statesReasonedChoice(line: string): boolean {
  return (
    cuesIn(line).some((cue) => cue.family === 'decision' && cue.strength === 'strong') &&
    /\b(?:because|since|so that)\b/iu.test(line)
  );
}
/**
 * A decision's "Implementation:" item (beside its "Decision:" and "Rationale:") reports where the
 * change was made ("Type and emission sites in `agent-session.ts` were updated"): the work, not
 * the choice.
 */
const WORK_LABEL =
  /^(?:implementation|files? (?:changed|modified|touched)|changes made|examples? updates?)\s*:/iu;

/**
 * An item that quotes the user ("The user said: "new beads were added. tackle them" — meaning
 * …"): the compaction prompt asks the writer to back its next step with the latest request,
 * verbatim. The quote is that step's evidence, not a task of its own.
 */
const USER_QUOTE =
  /^(?:as\s+)?(?:the\s+)?user(?:'s)?\s+(?:(?:last|latest|most recent|own|explicit)\s+)?(?:said|says|asked|wrote|replied|requested|(?:message|request|instruction|words?)\s+(?:was|were|is))\s*:?\s*["“'`]/iu;

/** Content terms a user's quote shares with another item of its section when it repeats that task. */
const QUOTE_SHARED = 2;

/** A list item this short says one thing only if it names what it is about. */
const LABEL_WORDS = 6;

/**
 * An item of a decisions section that names nothing ("Real-time filtering and computed
 * statistics" under "Advanced State Management"): a feature label from a report of what was
 * built, not a choice; without a named part, tool or identifier no reader can act on it. Its
 * neighbours that name one ("Custom `useTodos` hook with `useReducer`", "localStorage
 * persistence across sessions") are the choices.
 */
function isFeatureLabel(item: string): boolean {
  return item.split(/\s+/u).length <= LABEL_WORDS && !namesSomething(item);
}

/** A file's name without its folders: how a summary names a file it names by path elsewhere. */
const baseName = (path: string) => path.split('/').at(-1)!;

/**
 * The files a section reports work done on: named on a line that reports it ("**Added intro
 * section to custom-tools.md**", "Both `custom-tools.md` and README.md have been updated").
 */
function reportedFiles(text: string): Set<string> {
  return new Set(
    text
      .split('\n')
      .map((line) =>
        line
          .trim()
          .replace(/^(?:[-*+]\s+|\d+[.)]\s+)/u, '')
          .replace(/\*\*/gu, ''),
      )
      .filter((line) => DONE_REPORT.test(line))
      .flatMap((line) => namedFiles(line).map(baseName)),
  );
}

/**
 * The family a section answers: its own heading's, else its nearest ancestor's ("### Avoiding
 * Global State" under "## Key Architecture Decisions" lists decisions).
 */
function sectionFamily(section: { heading: string; path?: readonly string[] }) {
  return [...[...(section.path ?? [])].reverse()]
    .map(headingFamily)
    .reduce((found, f) => found ?? f, headingFamily(section.heading));
}

/** The signal lines of a record's typed sections; the sections left are prose. */
export function sectionSignals(
  sections: readonly { heading: string; text: string; path?: readonly string[] }[],
): {
  signals: Signal[];
  prose: string[];
} {
  const signals: Signal[] = [];
  const prose: string[] = [];
  // Per signal, the section it came from: a later section may report its pending work done.
  const from: number[] = [];
  for (const [at, section] of sections.entries()) {
    while (from.length < signals.length) from.push(at - 1);
    // A section whose own heading names no family takes its nearest ancestor's: "### Avoiding
    // Global State" under "## Key Architecture Decisions" lists decisions.
    const family = sectionFamily(section);
    const own = headingFamily(section.heading);
    if (family !== undefined) {
      // Trigger: a section whose heading names its topic, not its kind ("### Avoiding Global
      // State" under "## Key Architecture Decisions"). Why: the heading is the subject its items
      // leave out ("`AgentSession` now takes `resolveApiKey` in config" is there to avoid
      // global state; "4. Environment variables" is a place in a resolution order). Outcome:
      // the items are read under the heading as their lead-in, as a list under "…:" is.
      const text =
        own === undefined && section.heading.trim() !== ''
          ? `${section.heading}:\n${section.text
              .split('\n')
              .map((line) => `  ${line}`)
              .join('\n')}`
          : section.text;
      // Trigger: an item under a "Pending" or "Next steps" heading. Why: such sections also list
      // what was done under a pending task ("Added the close button"). Outcome: a report of work
      // done is no open line; the pending task and its remaining steps are.
      const keep =
        family === 'open'
          ? (line: string) => !DONE_REPORT.test(line)
          : family === 'decision'
            ? (line: string) => !WORK_LABEL.test(line) && !editsDocumentation(line)
            : undefined;
      // In an ordered list ("1. settings.json apiKeys … 4. Environment variables") the position
      // is the fact, so a short item there is no label.
      const ordered = /^\s*\d+[.)]\s/mu.test(section.text);
      const items = listItems(text, keep, family === 'decision' ? statesReasonedChoice : undefined);
      // Trigger: a pending section that quotes the user beside the steps it lists ("Complete
      // gqc.6 by adding tests …", then "The user said: "… tackle them" — meaning …"). Why: the
      // quote repeats, in the user's words, a task the section already states. Outcome: the
      // quote is no line where another item of the section shares its terms (QUOTE_SHARED);
      // a quote of a separate request ("also make the upload command exit non-zero …") stays.
      const siblings = items.filter((item) => !USER_QUOTE.test(item)).map(termSet);
      const repeats = (item: string) => {
        const quoted = termSet(item.replace(USER_QUOTE, ''));
        return siblings.some(
          (terms) => [...quoted].filter((t) => terms.has(t)).length >= QUOTE_SHARED,
        );
      };
      for (const item of items) {
        if (family === 'decision' && !ordered && isFeatureLabel(item)) continue;
        if (family === 'open' && USER_QUOTE.test(item) && repeats(item)) continue;
        signals.push({ text: item, family: DEFERRED.test(item) ? 'open' : family });
      }
      continue;
    }
    const all = listItems(section.text);
    // Work handed on to an issue is open whatever section lists it (a "Completed Tasks" item).
    for (const item of all.filter((line) => DEFERRED.test(line)))
      signals.push({ text: item, family: 'open' });
    const items = all.filter((line) => !DEFERRED.test(line));
    const choices = items.filter((item) => CHOICE.test(item));
    // A section with no stated choice stays prose whole (its layout kept for the sentence split).
    if (choices.length === 0) {
      prose.push(section.text);
      continue;
    }
    for (const item of choices) signals.push({ text: item, family: 'decision' });
    prose.push(items.filter((item) => !CHOICE.test(item)).join('\n'));
  }
  while (from.length < signals.length) from.push(sections.length - 1);
  // Trigger: a pending item naming a file that a later section reports done (a split-turn
  // summary: the history's "Remaining Work: custom-tools.md …", then the turn's own "Added intro
  // section to custom-tools.md"). Why: the later section is the later word on that file, as a
  // later edit of it is (pending-work.ts). Outcome: the item is no open line.
  // Only a section that reports work can: a bug section's "README.md has been failing the link
  // check" or another pending list says nothing of that file's task being done. A "Current
  // State" section (an open heading) sums up what is so, and is read.
  const reported = sections.map((section) => {
    const family = sectionFamily(section);
    const closes =
      family === undefined ||
      family === 'decision' ||
      (family === 'open' && /\bcurrent (?:work|state)\b/iu.test(section.heading));
    return closes ? reportedFiles(section.text) : new Set<string>();
  });
  const later = (at: number) => new Set(reported.slice(at + 1).flatMap((files) => [...files]));
  const done = (signal: Signal, at: number) => {
    if (signal.family !== 'open') return false;
    const files = namedFiles(signal.text).map(baseName);
    const after = later(at);
    return files.length > 0 && files.every((file) => after.has(file));
  };
  return { signals: signals.filter((signal, i) => !done(signal, from[i]!)), prose };
}
