import type { ChunkRecord } from '../controller.js';
import type { Signal } from './summary-signals.js';

/*
 * Signals read off the agent's tool calls: what a call acted on (its command or file), and a
 * `git commit -m` stating what a change was for in the author's own words. The failing run
 * and its passing rerun are error-fix-signals.ts.
 */

/** The JSON input of a tool call rendered as `<name> {json}`, or undefined when it has none. */
export function callInput(call: string): Record<string, unknown> | undefined {
  const json = call.indexOf('{');
  if (json < 0) return undefined;
  try {
    const input: unknown = JSON.parse(call.slice(json));
    return typeof input === 'object' && input !== null
      ? (input as Record<string, unknown>)
      : undefined;
  } catch {
    // Not JSON (a harness that renders calls as text).
    return undefined;
  }
}

const KEY_FIELDS = ['command', 'file_path', 'path', 'cmd'] as const;

/**
 * A field's string value read off the text of a call whose JSON was cut off (a source caps a
 * long tool input): a leading field such as `file_path` is whole even when `old_string` is not.
 */
function fieldInCutInput(call: string, field: string): string | undefined {
  const match = new RegExp(`"${field}"\\s*:\\s*"((?:[^"\\\\]|\\\\.)*)"`).exec(call);
  if (match === null) return undefined;
  try {
    return JSON.parse(`"${match[1]!}"`) as string;
  } catch {
    // An escape cut in half: not a value to key by.
    return undefined;
  }
}

/** What a tool call acted on: its command, else the file it touched, else its whole text. */
export function callKey(call: string): string {
  const input = callInput(call);
  for (const field of KEY_FIELDS) {
    const value = input === undefined ? fieldInCutInput(call, field) : input[field];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  return call.trim();
}

const COMMIT =
  /\bgit\s+commit\b[^\n]*?\s-m\s+(?:"((?:[^"\\]|\\.)+)"|'([^']+)'|"?\$\(cat <<'?EOF'?\n([\s\S]+?)\n\s*EOF)/;

/** The message of a `git commit -m` call, or undefined when the call commits nothing. */
export function commitMessage(call: string): string | undefined {
  const match = COMMIT.exec(callKey(call));
  const message = (match?.[1] ?? match?.[2] ?? match?.[3])?.replace(/\\(["\\])/g, '$1').trim();
  return message === undefined || message === '' ? undefined : message;
}

/**
 * A commit that only ships or documents work (a release, a version bump, a changelog, readme or
 * docs edit) records no decision and no fix: the change it describes was committed on its own.
 */
const HOUSEKEEPING =
  /^(?:release|bump|merge|wip|chore|typo|format|lint)\b|\b(?:changelog|readme|docs?|documentation|test output|v\d+\.\d+\.\d+)\b/i;

/**
 * A subject that says it fixes something. Whole words only: `resolveApiKey` or `fixtures` name
 * code, and a prefix match sent every commit touching them to the bugs note.
 */
const FIX_SUBJECT =
  /\b(?:fix(?:e[sd]|ing)?|hotfix|bugs?|bugfix|resolv(?:e[sd]?|ing)|repair(?:s|ed|ing)?|regressions?)\b/i;

const EDIT_TOOL = /^(?:edit|multiedit|write|notebookedit|str_replace\w*|apply_patch)\b/i;

/** The file a call edits (what the agent did between a failure and its pass is the fix), or undefined when it is no edit. */
export function editedFile(call: string): string | undefined {
  if (!EDIT_TOOL.test(call.trim())) return undefined;
  // An edit's key is its file, read even from an input the source cut off.
  const key = callKey(call);
  return key !== call.trim() ? key : undefined;
}

/**
 * A file that documents the system rather than being it: prose (markdown, text), or anything
 * under a docs or examples folder. An example shows how to use an API; it decides nothing about it.
 */
const DOCUMENT = /\.(?:md|mdx|markdown|rst|txt|adoc)$|(?:^|[\\/])(?:docs?|examples?)[\\/]/i;

/**
 * The subject of each `git commit -m` in the chunk's tool calls, housekeeping aside: a fix is a
 * bug line, else a decision. A commit whose edits (those the chunk shows since its previous
 * commit) all touched documents is housekeeping too, whatever its subject says: "Clarify
 * keepRecentTokens is configurable" or "Improve compaction diagrams with legend" records a
 * rewording of the docs, and the decision it describes, if any, was committed with the code.
 */
export function commitSignals(records: readonly ChunkRecord[]): Signal[] {
  const out: Signal[] = [];
  let edited: string[] = [];
  for (const record of records) {
    if (record.role !== 'tool_call') continue;
    const file = editedFile(record.text);
    if (file !== undefined) {
      edited.push(file);
      continue;
    }
    const message = commitMessage(record.text);
    if (message === undefined) continue;
    const documents = edited.length > 0 && edited.every((path) => DOCUMENT.test(path));
    edited = [];
    const subject = message.split('\n')[0]!.trim();
    if (HOUSEKEEPING.test(subject) || documents) continue;
    out.push({
      text: `Commit: ${subject}`,
      family: FIX_SUBJECT.test(subject) ? 'cause' : 'decision',
    });
  }
  return out;
}
