import { MemError } from './errors.js';
import { refusedControl, codePointName } from './terminal-text.js';
import { issueField } from './zod-issues.js';

/** The first string inside `value` (depth first) that holds a refused character, with its path. */
interface Refused {
  found: NonNullable<ReturnType<typeof refusedControl>>;
  path: (string | number)[];
}

/**
 * Depth first over `value`'s strings, `path` the way down (pushed and popped, copied only for
 * the string refused); a top-level field named in `verbatim` is not entered. Why not a
 * generator yielding each string with a copy of its path: that walk was the largest allocator
 * outside SQLite of an add_items(100), ~360 KiB a call (a generator, a path array and a tuple
 * per value; heap sampling, stop 35).
 */
function firstRefused(
  value: unknown,
  path: (string | number)[],
  verbatim: readonly string[],
): Refused | null {
  if (typeof value === 'string') {
    const found = refusedControl(value);
    return found === null ? null : { found, path: [...path] };
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      path.push(i);
      const hit = firstRefused(value[i], path, verbatim);
      path.pop();
      if (hit) return hit;
    }
  } else if (value !== null && typeof value === 'object') {
    for (const key of Object.keys(value)) {
      if (path.length === 0 && verbatim.includes(key)) continue;
      path.push(key);
      const hit = firstRefused((value as Record<string, unknown>)[key], path, verbatim);
      path.pop();
      if (hit) return hit;
    }
  }
  return null;
}

/**
 * Refuses a write whose text holds a character a terminal would act on rather than show (C0
 * and C1 controls but newline and tab, the bidi embedding, override and isolate controls):
 * INVALID_INPUT naming the field, the code point and where it is, before anything is written.
 * One walk over the parsed input, not a refinement per schema, so a free-text field added later
 * is covered without anyone remembering to. `verbatim` names the top-level fields exempt
 * (transcripts, stored as they were). `where` adds details naming the input (a file, a line).
 */
export function refuseControlText(
  input: unknown,
  operation: string,
  verbatim: readonly string[] = [],
  where: Record<string, unknown> = {},
): void {
  const hit = firstRefused(input, [], verbatim);
  if (hit === null) return;
  const { found, path } = hit;
  const field = issueField(path) || '(input)';
  const point = codePointName(found.char);
  const what = /[\u202a-\u202e\u2066-\u2069]/u.test(found.char)
    ? 'bidi control'
    : 'control character';
  const problem = `contains the ${what} ${point} at character ${found.index + 1}; expected text without control characters (newline and tab are allowed) or bidi controls (U+202A-U+202E, U+2066-U+2069)`;
  throw new MemError('INVALID_INPUT', `${operation}: ${field}: ${problem}`, {
    ...where,
    field,
    code_point: point,
    expected: 'text without control or bidi characters',
    issues: [{ field, expected: 'text without control or bidi characters', problem }],
  });
}

/** A plain object or array (what JSON and the CLI's flags make), whose strings lfLineEnds walks. */
function plain(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** `value` with CRLF made LF in its strings; `value` itself (no copy) when it holds none. */
function lf(value: unknown): unknown {
  if (typeof value === 'string')
    return value.includes('\r\n') ? value.replace(/\r\n/g, '\n') : value;
  if (Array.isArray(value)) {
    const mapped = value.map(lf);
    return mapped.some((v, i) => v !== value[i]) ? mapped : value;
  }
  if (plain(value)) return lfFields(value, []);
  return value;
}

/** A plain object's fields through lf (`verbatim` ones as they are); the object itself when none changed. */
function lfFields(value: Record<string, unknown>, verbatim: readonly string[]): unknown {
  const entries = Object.entries(value).map(([k, v]): [string, unknown] => [
    k,
    verbatim.includes(k) ? v : lf(v),
  ]);
  return entries.some(([k, v]) => v !== value[k]) ? Object.fromEntries(entries) : value;
}

/**
 * `input` with every CRLF in its strings made LF, `verbatim` top-level fields left as they are
 * (copied only where something changed: most writes hold no CR, and this runs on every write).
 * Trigger: an HTTP client (a browser's textarea, a Windows editor) sends CRLF inside a text
 * field. Why: refused as a control character (U+000D), such a client could write no multi-line
 * text at all; stored as sent, the log would hold two forms of one text (two content hashes, a
 * forgotten text's CRLF rewording not refused). Outcome: made LF at the write boundary, before
 * validation (so a length limit counts what is stored); a CR alone, which rewrites a terminal
 * line, is still refused (refuseControlText). Transcripts stay as they were (verbatim).
 */
export function lfLineEnds(input: unknown, verbatim: readonly string[] = []): unknown {
  return plain(input) ? lfFields(input, verbatim) : lf(input);
}
