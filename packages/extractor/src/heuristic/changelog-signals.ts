import type { ChunkRecord } from '../controller.js';
import type { CueFamily } from './cues.js';
import { callInput } from './run-signals.js';
import type { Signal } from './summary-signals.js';

/*
 * A changelog entry is the project's own curated record of a change, written for people:
 * "### Added" and "### Changed" entries state what was decided, "### Fixed" entries what was
 * broken. When the agent edits a changelog (keep-a-changelog layout), each entry the edit adds
 * is one line, read off the tool call's new text; entries already there say nothing new.
 */

const CHANGELOG_FILE = /(?:^|[/\\])(?:CHANGELOG|CHANGES|HISTORY|RELEASE[-_]?NOTES)(?:\.[a-z]+)?$/i;
const SECTION =
  /^#{2,4}\s+(added|changed|deprecated|removed|breaking(?: changes?)?|fixed|security)\b/i;
const BULLET = /^(\s*)[-*+]\s+(.+)$/;

/**
 * An edit often replaces one entry without its section heading in view: then the entry's own
 * first word says whether it is a fix.
 */
function familyOf(section: string | undefined, entry: string): CueFamily {
  if (section === undefined) return /^fix(?:e[sd])?\b/i.test(entry) ? 'cause' : 'decision';
  return /^(?:fixed|security)/i.test(section) ? 'cause' : 'decision';
}

/** `**Title**: text ([#1](url))` → `Title: text (#1)`: the words a reader keeps. */
function plain(entry: string): string {
  return entry
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/\*\*([^*]+)\*\*/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The (old, new) text pairs one tool call writes to a changelog, or none for another file. */
function writes(call: string): { before: string; after: string }[] {
  const input = callInput(call);
  const path = input?.file_path ?? input?.path;
  if (typeof path !== 'string' || !CHANGELOG_FILE.test(path)) return [];
  const str = (value: unknown) => (typeof value === 'string' ? value : '');
  // Claude's MultiEdit carries its replacements as a list.
  const edits = Array.isArray(input!.edits)
    ? (input!.edits as Record<string, unknown>[])
    : [input!];
  return edits.map((e) => ({
    before: str(e.old_string ?? e.oldText),
    after: str(e.new_string ?? e.newText ?? e.content),
  }));
}

function entries(before: string, after: string): Signal[] {
  const existing = new Set(before.split('\n').map((line) => line.trim()));
  const out: Signal[] = [];
  let section: string | undefined;
  let parent: string | undefined;
  for (const line of after.split('\n')) {
    const heading = SECTION.exec(line.trim());
    if (heading) {
      section = heading[1];
      parent = undefined;
      continue;
    }
    if (/^#/.test(line.trim())) section = undefined;
    const bullet = BULLET.exec(line);
    if (!bullet) continue;
    const text = plain(bullet[2]!);
    const nested = bullet[1]!.length > 0;
    if (!nested) parent = text.replace(/:$/, '');
    // A heading bullet ("**SessionManager API cleanup**:") says nothing alone: its items do.
    if (!nested && text.endsWith(':')) continue;
    if (existing.has(line.trim())) continue;
    out.push({
      text: nested && parent !== undefined ? `${parent}: ${text}` : text,
      family: familyOf(section, text),
    });
  }
  return out;
}

/** One line per changelog entry a tool call of the chunk adds, in transcript order. */
export function changelogSignals(records: readonly ChunkRecord[]): Signal[] {
  const out: Signal[] = [];
  const seen = new Set<string>();
  for (const record of records) {
    if (record.role !== 'tool_call') continue;
    for (const { before, after } of writes(record.text))
      for (const signal of entries(before, after)) {
        if (seen.has(signal.text)) continue;
        seen.add(signal.text);
        out.push(signal);
      }
  }
  return out;
}
