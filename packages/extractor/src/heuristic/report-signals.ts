import type { ChunkRecord } from '../controller.js';
import { isChatter } from './chatter.js';
import { cuesIn } from './cues.js';
import { callKey } from './run-signals.js';
import type { Signal } from './summary-signals.js';
import { sentences } from './text.js';

/*
 * A crash the user pastes (an `Error: …` line and its stack) that the agent then changes code
 * for is a bug with its symptom, where it was thrown, and its fix. The user's paste is no prose
 * (it is tool output), and the agent's reply is often only "You're right, let me fix that": the
 * fix is stated in the edit itself, as the comment the agent wrote above the new code.
 */

const ERROR_LINE = /^\s*(?:Uncaught\s+)?(?:[A-Z]\w*)?(?:Error|Exception)\b:?\s+(\S.{3,160})$/;
const FRAME = /^\s*at (?:new )?([\w$.<>]+) \(([^)]+?)(?::\d+){0,2}\)/;
const EDITS = /^(?:edit|write|multiedit|multi_edit|str_replace\w*|apply_patch|create)\b/i;
const FIX_VERB =
  /\b(?:added|adds?|changed|replaced|wrapped|falls? back|fall(?:ing)? back|catch(?:es)?|guards?|validates?|now)\b/i;
const COMMENT = /^\s*(?:\/\/|#|\/?\*+)\s*(.+?)\s*(?:\*\/)?$/;
/**
 * A sentence that says what the code ought to do ("The theme loader should catch this error
 * gracefully instead of crashing"): the agent's aim before it edits, not the change it made.
 */
const PRESCRIBES = /\b(?:should|must|ought to|needs? to|has to|have to)\b/i;
/** Where new code handles an error: its comment says how the crash is handled now. */
const CATCH = /\b(?:catch|except|rescue)\b/;
const FIX_CHARS = 200;

/** The error message, the first frame of a pasted stack and the files of all its frames. */
function crashIn(text: string): { message: string; frame: string; files: string[] } | undefined {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const error = ERROR_LINE.exec(lines[i]!);
    if (error === null) continue;
    const frames: RegExpExecArray[] = [];
    for (let j = i + 1; j < lines.length; j++) {
      const frame = FRAME.exec(lines[j]!);
      if (frame === null) break;
      frames.push(frame);
    }
    const first = frames[0];
    if (first === undefined) continue;
    const file = first[2]!.split('/').slice(-2).join('/');
    return {
      message: error[1]!.trim(),
      frame: `${first[1]} (${file})`,
      files: [...new Set(frames.map((f) => f[2]!))],
    };
  }
  return undefined;
}

/** True when an edited path (relative) names one of the stack's files (absolute). */
function inStack(path: string, files: readonly string[]): boolean {
  const relative = path.replace(/^\.?\//, '');
  return files.some((file) => file === relative || file.endsWith(`/${relative}`));
}

/** The path and the new text of an edit call; a capped call (not JSON) is read by pattern. */
function editOf(call: string): { path: string; added: string } | undefined {
  if (!EDITS.test(call)) return undefined;
  const path = callKey(call);
  const json = call.slice(call.indexOf('{'));
  try {
    const input = JSON.parse(json) as Record<string, unknown>;
    const added = ['newText', 'new_string', 'content', 'new_str']
      .map((field) => input[field])
      .find((value): value is string => typeof value === 'string');
    return added === undefined ? undefined : { path, added };
  } catch {
    // The source capped the call mid-JSON: its field values are still JSON strings up to the cut.
    const field = /"(?:path|file_path)":"((?:[^"\\]|\\.)*)"/.exec(json)?.[1];
    const added = /"(?:newText|new_string|content|new_str)":"((?:[^"\\]|\\.)*)/.exec(json)?.[1];
    if (added === undefined) return undefined;
    const unescape = (s: string) =>
      s.replace(/\\n/g, '\n').replace(/\\t/g, '\t').replace(/\\(.)/g, '$1');
    return { path: field === undefined ? path : unescape(field), added: unescape(added) };
  }
}

/**
 * The comment of new code that says what it does (a few words, not commented-out code): the first
 * one in its error handler, else the first one. Trigger: a crash fixed by wrapping the call that
 * threw ("// Preview theme on selection change", then "catch (error) { // Ignore errors during
 * preview … }"). Why: the handler is the fix of a crash; the comment above the wrapped call names
 * what the code was doing already. Outcome: the handler's comment is the fix.
 */
function commentIn(code: string): string | undefined {
  const lines = code.split('\n');
  const handler = lines.findIndex((line) => CATCH.test(line) && !COMMENT.test(line));
  return (handler < 0 ? undefined : firstComment(lines.slice(handler))) ?? firstComment(lines);
}

function firstComment(lines: readonly string[]): string | undefined {
  for (const line of lines) {
    const said = COMMENT.exec(line)?.[1];
    if (said !== undefined && said.split(/\s+/).length >= 3 && !/[;{}=]\s*$|\(\)/.test(said))
      return said;
  }
  return undefined;
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > FIX_CHARS ? `${flat.slice(0, FIX_CHARS).trimEnd()}…` : flat;
}

/** Whether a user's message pastes a crash: an error line and the stack under it. */
export function pastesCrash(text: string): boolean {
  return crashIn(text) !== undefined;
}

/** One bug line per pasted crash that the agent later edits code for, within the chunk. */
export function reportedCrashSignals(records: readonly ChunkRecord[]): Signal[] {
  const out: Signal[] = [];
  records.forEach((record, i) => {
    if (record.role !== 'user') return;
    const crash = crashIn(record.text);
    if (crash === undefined) return;
    let said: string | undefined;
    const edits: { path: string; added: string }[] = [];
    for (const next of records.slice(i + 1)) {
      if (next.role === 'user') break;
      if (next.role === 'assistant' && said === undefined)
        said = sentences(next.text).find(
          (s) =>
            !isChatter(s) &&
            !PRESCRIBES.test(s) &&
            (FIX_VERB.test(s) || cuesIn(s).some((c) => c.family === 'cause')),
        );
      const edit = next.role === 'tool_call' ? editOf(next.text) : undefined;
      if (edit !== undefined) edits.push(edit);
    }
    // Trigger: a code change follows the report, before the user speaks again. Why: the edit is
    // what the agent did about it, and an edit to a file of the stack is the fix rather than a
    // side change. Outcome: a line; the fix is the agent's sentence, else the edit's comment.
    const edit = edits.find((e) => inStack(e.path, crash.files)) ?? edits[0];
    if (edit === undefined) return;
    const fix = said ?? commentIn(edit.added) ?? 'changed';
    out.push({
      text: `Crash "${crash.message}" at ${crash.frame}; fixed in ${edit.path}: ${clip(fix)}`,
      family: 'cause',
    });
  });
  return out;
}
