/** What a skill is drawn from: one note's live lines and where they came from. */
export interface SkillSource {
  name: string;
  project: string;
  /** `<project>/<note>`, as the caller named it. */
  from: string;
  /** The content sha of the memory the note shows. */
  memory: string;
  /** The note's title: its standing query's, or the project synthesis's. */
  title: string;
  lines: readonly string[];
}

/** The parts of a SKILL.md a composer decides; the frontmatter's provenance is not its to choose. */
export interface SkillParts {
  description: string;
  when_to_use: string;
  body: string;
}

/**
 * The whole SKILL.md: frontmatter in a fixed key order (every value a JSON string, which is YAML
 * that never reads back as a date or a number), then the body, LF, one trailing newline.
 */
export function skillText(source: SkillSource, parts: SkillParts): string {
  const front = [
    ['name', source.name],
    ['description', parts.description],
    ['when_to_use', parts.when_to_use],
    ['generated_from', source.memory],
    ['project', source.project],
  ].map(([key, value]) => `${key}: ${JSON.stringify(value)}`);
  const body = parts.body.replace(/\r\n?/g, '\n').trim();
  return `---\n${front.join('\n')}\n---\n${body}\n`;
}
