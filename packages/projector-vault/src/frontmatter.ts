import matter from 'gray-matter';

/**
 * A calendar day that js-yaml writes as a plain YAML date (`updated: 2026-08-17`), as in the
 * seed's note form. js-yaml represents a Date by its `toISOString()`; a plain string
 * '2026-08-17' would be quoted, because YAML would otherwise read it back as a date.
 */
class CalendarDay extends Date {
  override toISOString(): string {
    return super.toISOString().slice(0, 10);
  }
}

/** A frontmatter value: JSON-native scalars, a list of strings, plus `{ day }` for a YAML date. */
export type FrontmatterValue = string | number | null | readonly string[] | { day: string };

/** gray-matter hands its options to js-yaml's safeDump: no line folding of long values. */
const DUMP_OPTIONS = { lineWidth: -1 } as matter.GrayMatterOption<string, never>;

function yamlValue(value: FrontmatterValue): string | number | null | readonly string[] | Date {
  if (value !== null && typeof value === 'object' && 'day' in value)
    return new CalendarDay(`${value.day}T00:00:00.000Z`);
  return value;
}

/**
 * A whole note: gray-matter frontmatter (keys in the order given) and a body. LF only,
 * exactly one trailing newline.
 */
export function stringifyNote(
  frontmatter: ReadonlyArray<readonly [string, FrontmatterValue]>,
  bodyLines: readonly string[],
): string {
  const data: Record<string, unknown> = {};
  for (const [key, value] of frontmatter) data[key] = yamlValue(value);
  const body = `${bodyLines.join('\n').trimEnd()}\n`;
  // A file object, not the body string: given a string, gray-matter first parses it as a note,
  // so a body opening with `---js` would run.
  return matter.stringify({ content: body }, data, DUMP_OPTIONS);
}
