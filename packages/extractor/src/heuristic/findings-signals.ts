import type { ChunkRecord } from '../controller.js';
import type { Signal } from './summary-signals.js';
import { asksLeave } from './not-findings.js';
import { listItems } from './text.js';

/*
 * An agent that has read the code or the docs often closes with what it learned, as a list under
 * a lead-in that says so: "Key findings:", "### Important Notes", "Found some discrepancies:",
 * "Caveats:". Each item states how the system works ("JSON is only processed on exit code 0",
 * "No Igniter installers exist for credo…") and carries no cue word a prose sentence is scored
 * by, so as prose it never reaches the gate. The lead-in is the signal: its items are findings
 * the agent itself singled out, kept whole, one line each.
 */

/** A lead-in that names what follows as findings, notes or discrepancies found. */
const FINDINGS =
  /\b(?:(?:key|main|important|notable)\s+(?:findings?|notes?|points?|facts|details|takeaways?)|findings|caveats?|gotchas?|takeaways?|(?:found|noticed|discovered|spotted)\s+(?:(?:some|a few|several|these|the following|two|three|four|\d+)\s+)?(?:discrepanc(?:y|ies)|inconsistenc(?:y|ies)|mismatch(?:es)?))\b/iu;
/**
 * A lead-in that says how something behaves now ("Context usage in the footer now:", "Now
 * invalid themes will:", "Now if you delete the theme file:"): its items describe the system
 * after a change, and the lead-in names their subject, so each item keeps it. What a document
 * now says ("The docs now explain:") is no behaviour: only "…now:", "Now if/when…:" and
 * "Now … will:" lead-ins count.
 */
const NOW =
  /\bnow\s*:\s*$|^now,?\s+(?:if|when(?:ever)?|on|after|once)\b|^now\b[^:]*\bwill\s*:\s*$/iu;
/** …but the agent announcing its own next step ("Now let me update:", "Now I'll add:") is narration. */
const OWN_STEP =
  /\b(?:let me|let's|i(?:'ll| will| need| should| can|'m)|we(?:'ll| will| need| should))\b/iu;
/** A markdown heading or a bold line alone, its text captured. */
const HEADING = /^(?:#{1,6}[ \t]+(.+?)[ \t#]*|\*\*([^*\n]{1,80}?):?\*\*:?[ \t]*)$/u;
const ITEM = /^\s*(?:[-*+]|\d+[.)])\s+\S/u;
/** An item shorter than this says too little to stand alone ("Credo", "done"). */
const MIN_WORDS = 4;

/**
 * Findings lines of the agent's spoken records: the list items under a findings heading (to the
 * next heading) or under a line that ends in a findings or "now" lead-in and a colon (to the
 * first line that is neither an item nor indented under one).
 */
export function findingsSignals(records: readonly ChunkRecord[]): Signal[] {
  const out: Signal[] = [];
  for (const record of records) {
    if (record.role !== 'assistant' || record.text.startsWith('[thinking]')) continue;
    const lines = record.text.split('\n');
    // A message ending "Want me to implement this?" lays out a plan: its definitions ("`sdk.ts`:
    // ~10 lines") are what it would change, not what the system is. One that ends asking the
    // user anything ("Which one would you prefer?") lays out what it weighs ("### Options /
    // - `zod`: runtime validation …"): its lists are choices put to the user, not findings.
    const proposal = asksLeave(record.text) || /\?\s*$/u.test(record.text.trim());
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!.trim();
      const heading = HEADING.exec(line);
      const title = heading?.[1] ?? heading?.[2];
      const leadIn = title === undefined && /:\s*$/u.test(line) && !ITEM.test(lines[i]!);
      // The lead-in's last sentence names the list: "Good, I have enough context. Key findings:".
      const named = title ?? (leadIn ? line.split(/(?<=[.!?])\s+/u).at(-1)! : undefined);
      if (named === undefined) continue;
      const findings = FINDINGS.test(named);
      // A bare "Now:" (a before/after comparison) names no subject for its items.
      const now =
        !findings &&
        leadIn &&
        NOW.test(named.replace(/\*\*/gu, '')) &&
        !OWN_STEP.test(named) &&
        named.split(/\s+/u).length > 1;
      const block: string[] = [];
      let j = i + 1;
      for (; j < lines.length; j++) {
        const next = lines[j]!;
        if (HEADING.test(next.trim())) break;
        if (title === undefined && next.trim() !== '' && !ITEM.test(next) && !/^\s/u.test(next))
          break;
        // "**No installer** exists for…" is bold emphasis inside a sentence, not a label: unbolded,
        // so the list reader does not cut it into "No installer: exists for…".
        block.push(next.replace(/^(\s*(?:[-*+]|\d+[.)])\s+)\*\*([^*]+)\*\*(?=\s+[^\s:])/u, '$1$2'));
      }
      if (!findings && !now) {
        // Read by content, whatever the heading says (see definitionLines); a lead-in sentence
        // ("Some alternatives:") is talk about options, not a report's section.
        if (
          title !== undefined &&
          !proposal &&
          !NOT_PARTS.test(named.replace(/\*\*/gu, '')) &&
          !ADDED_PARTS.test(named.replace(/\*\*/gu, '')) &&
          !DEFECTS.test(named.replace(/\*\*/gu, ''))
        )
          out.push(...definitionLines(named, block));
        continue;
      }
      // The items of a "now" list are read under their lead-in (indented below it), so each
      // line names its subject; a findings lead-in ("Key findings") names none.
      const items = now
        ? listItems([named.replace(/\*\*/gu, ''), ...block.map((l) => `  ${l}`)].join('\n'))
        : listItems(block.join('\n'));
      for (const item of items)
        if (item.split(/\s+/u).length >= MIN_WORDS) out.push({ text: item, family: 'decision' });
      i = j - 1;
    }
  }
  return out;
}

/**
 * A list item that defines a named part of the system: a code identifier, then what it is
 * ("- `source`: How the session started - `startup`, `resume` …", "- **`additionalContext`**
 * (string): Added to Claude's context", "- `--force` — rebuilds every module"). Bounded: the
 * name is one token of at most 60 characters, its note at most 40.
 */
const DEFINITION =
  /^\s*(?:[-*+]|\d+[.)])\s+(?:\*\*)?`([^`\s]{1,60})`(?:\*\*)?(?:\s*\([^()\n]{1,40}\))?(?:\*\*)?\s*(?::|—|–|-)\s+(\S.*)$/u;

/**
 * Definition lines of a section whose heading names no kind of finding.
 * Trigger: an agent's report lists the fields, flags or settings it found ("**Input Fields:**",
 * "### 2. Fields Available in hookSpecificOutput") under a heading that says nothing of
 * findings. Why: each item says how a part of the system behaves, with the name a reader looks
 * up, and as prose it carries no cue word, so it never reached the gate; the heading word cannot
 * be the signal (any heading may hold one). Outcome: each item that defines a code identifier
 * with at least four words is a line, read under its heading (the heading names the subject:
 * "Input Fields: `source`: How the session started …"); the section's other items, prose,
 * tables and code are not read here.
 */
function definitionLines(named: string, block: readonly string[]): Signal[] {
  const subject = named
    .replace(/\*\*/gu, '')
    .replace(/^\s*(?:\d+[.)]\s+)?/u, '')
    .replace(/[\s:]+$/u, '');
  const out: Signal[] = [];
  let inFence = false;
  for (const line of block) {
    if (line.trim().startsWith('```')) inFence = !inFence;
    if (inFence) continue;
    const definition = DEFINITION.exec(line);
    if (!definition || definition[2]!.split(/\s+/u).length < MIN_WORDS) continue;
    // A file or folder keys a change list, a plan or a test report ("`src/auth/session.ts`:
    // Added a null check"); an item that says what was or is to be done, or asks, defines nothing.
    if (FILE_NAME.test(definition[1]!) || NOT_DEFINING.test(definition[2]!)) continue;
    const item = line
      .trim()
      .replace(/^(?:[-*+]|\d+[.)])\s+/u, '')
      .replace(/\*\*/gu, '');
    out.push({ text: subject === '' ? item : `${subject}: ${item}`, family: 'decision' });
  }
  // One such item in a section is an aside; a list of them is the section's report.
  return out.length >= MIN_DEFINITIONS ? out : [];
}

/** Definition items a section must hold to be read as a report of definitions. */
const MIN_DEFINITIONS = 2;
/**
 * A heading over what the agent did, means to do, ran or asks ("## Summary of Changes", "**Files
 * modified:**", "## Implementation Plan", "## Next Steps", "## Test Results", "### ESLint
 * output", "## Git status", "## Open questions"): its "`name`: words" items are edits, steps,
 * tool output or questions, not what a part of the system is. Only the heading's last word
 * counts: "### Output fields" and "## Status codes" still name parts.
 */
const NOT_PARTS =
  /\b(?:plan|steps|todo|changes(?: made)?|changed|modified|results?|output|status|questions)\s*:?\s*$/iu;
/**
 * A heading that announces what the session added ("### New Theme Tokens", "**Added flags:**",
 * "## Commands introduced"): its "`name` - words" items list the additions of a change report,
 * what each new name is for, with no choice or reason; they are the change list "Changes made"
 * heads, worded by what was added. Only the heading's first word (after a number) or its last
 * counts: "### Renewal fields" and "## Newline handling" name parts.
 */
const ADDED_PARTS =
  /^\s*(?:\d+[.)]\s+)?(?:new|newly added|added|introduced)\s|\s(?:added|introduced)\s*:?\s*$/iu;
/**
 * A heading over what is wrong ("**Issues in theme.md:**", "### Problems found", "Discrepancies
 * with the source"): its "`name` - words" items are defects found ("`thinkingXhigh` - not
 * documented"), what a part lacks or gets wrong, not what it is. Only the heading's first word
 * (after a number) counts: "### Issue tracker fields" names parts.
 */
const DEFECTS =
  /^\s*(?:\d+[.)]\s+)?(?:(?:known|open|remaining|other|main|key)\s+)?(?:issues?|problems?|discrepanc(?:y|ies)|inconsistenc(?:y|ies)|mismatch(?:es)?|bugs?|errors?|gaps?|defects?)(?:\s+(?:in|with|found|of|to fix)\b|\s*:?\s*$)/iu;
/**
 * A file or folder path ("`src/cache.ts`", "`lib/`", "`auth.test.ts`"), by a slash or a source
 * file's extension; a property path ("`process.env`", "`req.body`") is an identifier.
 */
const FILE_NAME =
  /\/|\.(?:[cm]?[jt]sx?|json|md|exs?|py|rs|go|rb|java|kt|swift|[ch]|cc|cpp|toml|ya?ml|lock|sh|css|scss|html|sql|txt)$/u;
/**
 * An item that says what was done or is to be done ("Added a null check", "add an LRU cache") or
 * that asks ("…?"). The third person ("creates the vault folder") says what a flag or command
 * does, and stays a definition.
 */
const NOT_DEFINING =
  /^(?:add(?:ed)?|updated?|changed?|removed?|renamed?|fix(?:ed)?|created?|modif(?:y|ied)|refactor(?:ed)?|bump(?:ed)?|moved?|replaced?|implement(?:ed)?|wired?|register(?:ed)?|extract(?:ed)?|deleted?)\b|\?\s*$/iu;
