/**
 * The parts of an error → fix line as error-fix-signals.ts writes it
 * (`` `CMD` failed with "SYMPTOM"; fixed: FIX ``, an L2 label before it), or undefined for any
 * other line. The memory carries text only, so the fold reads a line's parts back from its words.
 */
export interface ErrorFixLine {
  command: string;
  /** The symptom with its numbers (line, column, counts) blanked: one failure at another line. */
  symptom: string;
  /** Files the fix edited. */
  files: ReadonlySet<string>;
}

const LINE = /^(?:\[[^\]\n]+\] )?`([^`\n]+)` failed with "(.*)"; fixed: (.*)$/su;
const EDITED = /\bedited ([^;]+)/u;

export function errorFixLine(text: string): ErrorFixLine | undefined {
  const match = LINE.exec(text);
  if (match === null) return undefined;
  const edited = EDITED.exec(match[3]!)?.[1];
  return {
    command: match[1]!,
    symptom: match[2]!.replace(/\d+/gu, '#').toLowerCase(),
    files: new Set(edited === undefined ? [] : edited.split(', ').map((f) => f.trim())),
  };
}

/**
 * Whether two error → fix lines are one bug. Trigger: the same symptom (numbers aside), or the
 * same command fixed by an edit of the same file. Why: a long session reruns its typecheck or
 * its tests dozens of times; each failure it mends in one file is the same fix in progress, and
 * as lines of their own they crowd distinct findings out of a bounded memory. Outcome: the
 * memory keeps the first line and the later one is folded into it (not written).
 */
export function sameFailure(a: ErrorFixLine, b: ErrorFixLine): boolean {
  if (a.symptom === b.symptom) return true;
  return a.command === b.command && [...a.files].some((file) => b.files.has(file));
}
