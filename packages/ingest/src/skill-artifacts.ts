import type { LogEvent } from '@mem/core';

/**
 * The texts of every skill a project's log ever drafted: the skill half of the derived-artifact
 * manifest. Read from the log, not a projection: the whole SKILL.md lives only in its
 * `skill_drafted` payload (a promotion adds one frontmatter line to it), the ingest already reads
 * the log under its lock, and a table for it would be one more projection to version and rebuild.
 * A retired skill stays registered: its text pasted back into a transcript is still derived.
 */
export async function skillArtifactTexts(
  events: AsyncIterable<{ event: LogEvent }>,
): Promise<string[]> {
  const texts: string[] = [];
  for await (const { event } of events) if (event.type === 'skill_drafted') texts.push(event.text);
  return texts;
}
