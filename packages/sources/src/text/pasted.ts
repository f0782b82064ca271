import type { PastedKind } from '@mem/chunk';

/** The fewest lines a paste needs before it counts as a dump (a one-line `{…}` is often a question). */
const MIN_DUMP_LINES = 3;

/** A line a terminal or test runner printed: a prompt, a stack frame, a log level, a path:line. */
const TOOL_LINE =
  /^(?:\$ |> |\s+at |\s*(?:ERROR|WARN|INFO|DEBUG|TRACE)\b|\S+\.\w+:\d+(?::\d+)?\b|\[\d{4}-\d\d-\d\d|\d{4}-\d\d-\d\dT\d\d:)/u;

/**
 * What a user's text is when it is not the user speaking but something pasted: `json` (the whole
 * text parses as one JSON object or array), `jsonl` (every non-blank line, at least
 * MIN_DUMP_LINES, parses as JSON), `tool-output` (most of at least MIN_DUMP_LINES lines look like
 * terminal or log output). Undefined for prose; a question with a snippet inside stays prose.
 */
export function pastedKind(text: string): PastedKind | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if ((trimmed.startsWith('{') || trimmed.startsWith('[')) && parses(trimmed)) return 'json';
  const lines = trimmed.split('\n').filter((l) => l.trim() !== '');
  if (lines.length < MIN_DUMP_LINES) return undefined;
  if (lines.every((l) => l.trim().startsWith('{') && parses(l))) return 'jsonl';
  const toolish = lines.filter((l) => TOOL_LINE.test(l)).length;
  return toolish / lines.length >= 0.6 ? 'tool-output' : undefined;
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
