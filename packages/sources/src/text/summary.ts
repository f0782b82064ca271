import type { SummarySection } from '@mem/chunk';

/**
 * Harness sentences in and around compaction summaries (research §1.7): the wrapper Claude Code
 * puts before a continued session's summary, its "continue" instruction after it, and the
 * instruction prompt of a compaction run. Written by the CLI, never knowledge: cut wherever found.
 */
const BOILERPLATE: readonly RegExp[] = [
  /^This session is being continued from a previous conversation[^.\n]*\.(?:[ \t]*The conversation is summarized below:)?/u,
  /^Please continue the conversation from where we left off[^\n]*(?:\n|$)/mu,
  /^If you need specific details from before compaction[^\n]*(?:\n|$)/mu,
  /^Continue the conversation from where it left off[^\n]*(?:\n|$)/mu,
];

/** A compaction run's instruction prompt: a `user` turn that is the request, not a summary. */
export const COMPACTION_PROMPT = /^Your task is to create a detailed summary of the conversation/u;

/**
 * A heading line: markdown (`## Key decisions`), a top-level numbered heading ending in a colon
 * (`3. Files and Code Sections:`, Claude's format), or a bold line alone (`**Errors and fixes:**`).
 */
const HEADING =
  /^(?:#{1,6}[ \t]+(.+?)[ \t#]*|(\d{1,2}\.[ \t]+[^\n:]{1,80}):[ \t]*|\*\*([^*\n]{1,80}?):?\*\*:?[ \t]*)$/u;

/** A summary's text without the harness around it, and its sections; undefined when nothing is left. */
export function summaryRecord(
  raw: string,
): { text: string; sections: SummarySection[] } | undefined {
  let text = raw.trim();
  // A compaction run answers `<analysis>…</analysis><summary>…</summary>`: the analysis is the
  // model thinking aloud, the summary is the product.
  const tagged = /<summary>([\s\S]*?)(?:<\/summary>|$)/u.exec(text);
  if (tagged?.[1] !== undefined && tagged[1].trim() !== '') text = tagged[1].trim();
  text = text.replace(/<analysis>[\s\S]*?(?:<\/analysis>|$)/u, '').trim();
  for (const pattern of BOILERPLATE) text = text.replace(pattern, '').trim();
  if (text === '') return undefined;
  return { text, sections: summarySections(text) };
}

/**
 * Splits a summary at its heading lines; text before the first heading is not a section. Each
 * section keeps the path of markdown headings above it: a "### Avoiding Global State" under
 * "## Key Architecture Decisions" is a decision because of its parent. A numbered or bold
 * heading has no level of its own and sits under the markdown headings open at that point.
 */
export function summarySections(text: string): SummarySection[] {
  const sections: SummarySection[] = [];
  const open: { level: number; heading: string }[] = [];
  let current: { heading: string; path: string[]; lines: string[] } | undefined;
  const close = (): void => {
    if (current === undefined) return;
    sections.push({
      heading: current.heading,
      text: dedent(current.lines).trim(),
      ...(current.path.length > 0 ? { path: current.path } : {}),
    });
  };
  for (const line of text.split('\n')) {
    const match = HEADING.exec(line.trimEnd());
    const heading = (match?.[1] ?? match?.[2] ?? match?.[3])?.trim();
    if (heading === undefined) {
      current?.lines.push(line);
      continue;
    }
    close();
    const level = /^#+/.exec(line.trimStart())?.[0].length;
    if (level !== undefined) while ((open.at(-1)?.level ?? 0) >= level) open.pop();
    current = { heading, path: open.map((h) => h.heading), lines: [] };
    if (level !== undefined) open.push({ level, heading });
  }
  close();
  return sections;
}

/**
 * The lines with their common indentation taken off: a summary nests every section's list under
 * a numbered heading ("2. Key Technical Concepts:" then "   - …"); trimming alone would leave the
 * first item at the margin and its siblings indented, reading them as its sub-items.
 */
function dedent(lines: readonly string[]): string {
  const indents = lines.filter((l) => l.trim() !== '').map((l) => l.length - l.trimStart().length);
  const margin = indents.length === 0 ? 0 : Math.min(...indents);
  return lines.map((l) => l.slice(Math.min(margin, l.length - l.trimStart().length))).join('\n');
}
