import type { ChunkRecord } from '../controller.js';
import { isChatter } from './chatter.js';
import { cuesIn } from './cues.js';
import type { Signal } from './summary-signals.js';
import { sentences } from './text.js';

/*
 * Signals read off the agent's tool use: a failing run followed by a passing run of the same
 * command or file is a bug with its symptom and fix, and a `git commit -m` states what a
 * change was for in the author's own words.
 */

const FAILING =
  /\b(?:error|failed|failure|exception|traceback|panic|fatal|exit (?:code|status) [1-9]\d*|non-zero exit|\d+ failures?)\b/i;
const NO_FAILURE = /\b0 (?:failures|errors|failed)\b/i;
// A rejected tool use is the user saying no, not a failure of the command.
const REJECTED = /the user doesn't want to proceed with this tool use/i;
const SYMPTOM_CHARS = 200;

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

/** What a tool call acted on: its command, else the file it touched, else its whole text. */
export function callKey(call: string): string {
  const input = callInput(call);
  for (const field of ['command', 'file_path', 'path', 'cmd']) {
    const value = input?.[field];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  return call.trim();
}

// Sources render a result as `<tool> result:` or `<tool> error:` (the harness's own flag): a
// file read that merely contains the word "error" is no failure.
const HEADER = /^\S+ (error|result):/;
const FAILED_RUN =
  /\bexit(?:ed)?(?: with)? (?:code|status) [1-9]\d*|\b[1-9]\d* (?:failed|failures?)\b|\btraceback\b/i;

function failed(result: string): boolean {
  if (REJECTED.test(result)) return false;
  const header = HEADER.exec(result);
  if (header?.[1] === 'error') return true;
  if (header?.[1] === 'result') return FAILED_RUN.test(result);
  return FAILING.test(result) && !NO_FAILURE.test(result);
}

/** The first line of a failing result that says what went wrong. */
function symptomOf(result: string): string {
  const lines = result
    .replace(HEADER, '')
    .replace(/<\/?[a-z_]+>/g, '')
    .split('\n')
    .map((l) => l.trim());
  const line =
    lines.find((l) => FAILING.test(l) && l.length > 8) ?? lines.find((l) => l !== '') ?? '';
  return line.length > SYMPTOM_CHARS ? `${line.slice(0, SYMPTOM_CHARS).trimEnd()}…` : line;
}

// What an agent says when it states the change it made or the thing that was wrong.
const FIX_VERB =
  /\b(?:added|changed|replaced|removed|renamed|moved|set|lacked|was missing|was wrong)\b/i;

/** The fix the agent stated between the failing and the passing run: its best cause/fix sentence. */
function fixBetween(prose: readonly string[]): string | undefined {
  const said = prose.flatMap((text) => sentences(text)).filter((s) => !isChatter(s));
  return said.find((s) => cuesIn(s).some((c) => c.family === 'cause') || FIX_VERB.test(s));
}

/** One bug line per command that failed and later passed within the chunk. */
export function errorFixSignals(records: readonly ChunkRecord[]): Signal[] {
  const out: Signal[] = [];
  const pending: string[] = [];
  const open = new Map<string, { symptom: string; prose: string[] }>();
  for (const record of records) {
    if (record.role === 'tool_call') pending.push(callKey(record.text));
    else if (record.role === 'tool_result') {
      const key = pending.shift();
      if (key === undefined) continue;
      const failure = open.get(key);
      if (failed(record.text)) {
        if (failure === undefined) open.set(key, { symptom: symptomOf(record.text), prose: [] });
      } else if (failure !== undefined && !REJECTED.test(record.text)) {
        // Trigger: a pass with no fix stated between. Why: a retry that happens to pass (a
        // flaky run, a file read first) is no bug with a cause. Outcome: no line.
        const fix = fixBetween(failure.prose);
        if (fix !== undefined)
          out.push({
            text: `\`${key}\` failed with "${failure.symptom}"; fixed: ${fix}`,
            family: 'cause',
          });
        open.delete(key);
      }
    } else if (record.role === 'assistant')
      for (const failure of open.values()) failure.prose.push(record.text);
  }
  return out;
}

const COMMIT =
  /\bgit\s+commit\b[^\n]*?\s-m\s+(?:"((?:[^"\\]|\\.)+)"|'([^']+)'|"?\$\(cat <<'?EOF'?\n([\s\S]+?)\n\s*EOF)/;

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

/**
 * The subject of each `git commit -m` in the chunk's tool calls, housekeeping aside: a fix is a
 * bug line, else a decision.
 */
export function commitSignals(records: readonly ChunkRecord[]): Signal[] {
  const out: Signal[] = [];
  for (const record of records) {
    if (record.role !== 'tool_call') continue;
    const match = COMMIT.exec(callKey(record.text));
    const message = (match?.[1] ?? match?.[2] ?? match?.[3])?.replace(/\\(["\\])/g, '$1').trim();
    if (message === undefined || message === '') continue;
    const subject = message.split('\n')[0]!.trim();
    if (HOUSEKEEPING.test(subject)) continue;
    out.push({
      text: `Commit: ${subject}`,
      family: FIX_SUBJECT.test(subject) ? 'cause' : 'decision',
    });
  }
  return out;
}
