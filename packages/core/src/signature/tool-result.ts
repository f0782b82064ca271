import { lineSignatures, SIGNATURE_LINE_CAP, type FailureSignature } from './normalise.js';

/*
 * A failing tool result as the sources write it: a header `<tool> error:` (Claude Code's
 * is_error, pi's isError, Codex's failed call) or a body ending `(exit N)` with N non-zero (pi's
 * bash executions, Codex's shell tool). Anything else is a result, whatever its text says.
 */
const HEADER = /^([\w.:-]{1,64}) (error|result):$/;
const EXIT_TRAILER = /^\(exit (?!0\))-?\d{1,6}\)$/;

/** Lines that say where the error is: a word of failure (any case), an error code (as written). */
const ERROR_WORD =
  /\b(?:error|err!|errors|fatal|failed|failure|fails|exception|traceback|panic|panicked|cannot|can't|could not|unable to|not found|no such file|denied|refused|timed out|timeout|invalid|unknown|unexpected|missing|segmentation fault|killed)\b|<tool_use_error>/i;
const ERROR_CODE = /\b(?:E[A-Z]{3,}|ERR_[A-Z_]+|TS\d{4,5}|E\d{4})\b/;

/*
 * Lines every failure shares, or that only frame one: they would make two unrelated failures one
 * signature. A stack frame is where, not what (and its paths vary); an exit line is the outcome,
 * not the error; npm's trailer (code, path, workspace, location, "Lifecycle script … failed")
 * and its warnings, and the `> script` echo, say which command ran, not what went wrong.
 * Measured on the shipped transcripts (`mem eval signatures`): each of these recurred across
 * sessions of unrelated failures.
 */
const BOILERPLATE =
  /^(?:at\s|File "|\(exit -?\d+\)$|\(no output\)$|exit (?:code|status):? -?\d+$|Command (?:exited with code -?\d+|aborted)$|Error: Process completed with exit code|npm (?:ERR!|error) (?:A complete log of this run|code \d+$|path |command |workspace |location |errno |Lifecycle script )|npm (?:ERR!|error) *$|npm warn|> |\^+$|~+$)/i;

/** How many error lines of one result make its signatures: the first ones name the failure. */
const MAX_SALIENT = 6;

/** What a failing tool result says, read once. */
export interface FailingResult {
  /** The tool's name as the header gives it, lowercased; undefined when there is no header. */
  tool: string | undefined;
  /** The lines that name the error, in order, each cut to SIGNATURE_LINE_CAP. */
  salient: string[];
}

/**
 * Reads a tool result record's text: null when it did not fail, else its tool and salient lines
 * (the error lines, or the first meaningful line when none says "error"). Linear in the text:
 * each line is tested on a bounded prefix, and reading stops after MAX_SALIENT error lines.
 */
export function readFailingResult(text: string): FailingResult | null {
  const lines = text.split('\n');
  const header = HEADER.exec((lines[0] ?? '').trim());
  const body = header ? lines.slice(1) : lines;
  const last = lastNonBlank(body);
  const failed = header?.[2] === 'error' || (last !== undefined && EXIT_TRAILER.test(last));
  if (!failed) return null;
  return { tool: header?.[1]?.toLowerCase(), salient: salientLines(body) };
}

/** The salient lines of a raw failing log (a CI log, a pasted error): the same reading, no header. */
export function salientLines(lines: readonly string[]): string[] {
  const salient: string[] = [];
  let fallback: string | undefined;
  for (const line of lines) {
    const head = line.trim().slice(0, SIGNATURE_LINE_CAP);
    if (head === '' || BOILERPLATE.test(head)) continue;
    fallback ??= head;
    if (!ERROR_WORD.test(head) && !ERROR_CODE.test(head)) continue;
    salient.push(head);
    if (salient.length === MAX_SALIENT) break;
  }
  return salient.length > 0 ? salient : fallback === undefined ? [] : [fallback];
}

/** The failure signatures of a tool result record's text; empty when it did not fail. */
export function toolResultSignatures(text: string): FailureSignature[] {
  const failing = readFailingResult(text);
  return failing === null ? [] : lineSignatures(failing.salient, failing.tool);
}

/** The failure signatures of a raw failing log (no tool header: every log given here failed). */
export function logSignatures(text: string): FailureSignature[] {
  return lineSignatures(salientLines(text.split('\n')));
}

function lastNonBlank(lines: readonly string[]): string | undefined {
  for (let i = lines.length - 1; i >= 0; i -= 1) {
    const line = lines[i]!.trim();
    if (line !== '') return line.slice(0, SIGNATURE_LINE_CAP);
  }
  return undefined;
}
