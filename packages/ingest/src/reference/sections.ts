/*
 * Why a line-based splitter and not a markdown parser: no markdown parser is a dependency of
 * mem, and a passage boundary needs only the block structure that decides where a heading is:
 * ATX (`## Title`) and setext (`Title` over `===`/`---`) headings, fenced code blocks (a `#` line
 * inside one is code, not a heading) and front matter. Everything else stays verbatim text.
 */

/** A part of a document under one heading: the heading path down to it and its lines (heading included). */
export interface Section {
  heading_path: string[];
  lines: string[];
}

const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
/** Lines that start a block of their own, so they never form the text of a setext heading. */
const NOT_PARAGRAPH = /^(?: {4}|\t| {0,3}(?:[>|]|[-*+][ \t]|\d{1,9}[.)][ \t]|<))/;

interface Fence {
  char: string;
  length: number;
}

/** The fence a line opens, if any. A backtick fence's info string may not hold a backtick (CommonMark). */
function opensFence(line: string): Fence | null {
  const m = FENCE.exec(line);
  if (!m) return null;
  const marks = m[1]!;
  if (marks[0] === '`' && m[2]!.includes('`')) return null;
  return { char: marks[0]!, length: marks.length };
}

function closesFence(line: string, fence: Fence): boolean {
  const m = /^ {0,3}(`+|~+)[ \t]*$/.exec(line);
  return m !== null && m[1]![0] === fence.char && m[1]!.length >= fence.length;
}

/** Lines of a YAML front matter block at the very top (`---` … `---`), or 0. */
function frontMatterLength(lines: readonly string[]): number {
  if (lines[0] !== '---') return 0;
  const end = lines.indexOf('---', 1);
  return end > 0 ? end + 1 : 0;
}

/**
 * Splits a markdown document into sections at its headings, each with the path of headings
 * above it (`['Guide', 'Install']`). Text before the first heading is a section with an empty
 * path; front matter is dropped (metadata, not prose). Lines are kept as written.
 */
export function markdownSections(markdown: string): Section[] {
  const all = markdown.replace(/\r\n?/g, '\n').split('\n');
  const lines = all.slice(frontMatterLength(all));
  const sections: Section[] = [];
  const path: { level: number; title: string }[] = [];
  let current: Section = { heading_path: [], lines: [] };
  let fence: Fence | null = null;
  // Index in current.lines where the paragraph a setext underline would turn into a heading starts.
  let paragraphStart: number | null = null;

  const startSection = (level: number, title: string, headingLines: string[]) => {
    sections.push(current);
    while (path.length > 0 && path[path.length - 1]!.level >= level) path.pop();
    path.push({ level, title });
    current = { heading_path: path.map((h) => h.title), lines: headingLines };
    paragraphStart = null;
  };

  for (const line of lines) {
    if (fence) {
      current.lines.push(line);
      if (closesFence(line, fence)) fence = null;
      continue;
    }
    const opened = opensFence(line);
    if (opened) {
      fence = opened;
      paragraphStart = null;
      current.lines.push(line);
      continue;
    }
    const atx = ATX.exec(line);
    if (atx) {
      startSection(atx[1]!.length, (atx[2] ?? '').trim(), [line]);
      continue;
    }
    const setext = SETEXT.exec(line);
    if (setext && paragraphStart !== null) {
      const heading = current.lines.splice(paragraphStart);
      const title = heading.map((l) => l.trim()).join(' ');
      startSection(setext[1]![0] === '=' ? 1 : 2, title, [...heading, line]);
      continue;
    }
    if (line.trim() === '' || NOT_PARAGRAPH.test(line) || setext) paragraphStart = null;
    else if (paragraphStart === null) paragraphStart = current.lines.length;
    current.lines.push(line);
  }
  sections.push(current);
  return sections.filter((s) => s.lines.some((l) => l.trim() !== ''));
}
