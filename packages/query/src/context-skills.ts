import { keywordTerms } from './keyword-terms.js';

/** A loadable skill as the bundle offers it: enough to decide whether to load it, never its body. */
export interface SkillCard {
  name: string;
  description: string | null;
  when_to_use: string | null;
}

/**
 * The skills a tool or task calls for, best first: a skill matches by the keyword terms its
 * name, description and when_to_use share with the request (a skill named after the tool
 * always matches). Ranked by shared terms, then by name, so the order is deterministic.
 */
export function matchSkills(
  skills: readonly SkillCard[],
  tool: string | null,
  text: string,
): SkillCard[] {
  const wanted = new Set(keywordTerms(text).terms);
  if (wanted.size === 0 && tool === null) return [];
  const scored = skills.flatMap((skill) => {
    const own = keywordTerms(
      [skill.name.replace(/[-_.]/g, ' '), skill.description ?? '', skill.when_to_use ?? ''].join(
        '\n',
      ),
    ).terms;
    const shared = own.filter((term) => wanted.has(term)).length;
    const named = tool !== null && skill.name.toLowerCase() === tool.toLowerCase() ? 1 : 0;
    return shared + named > 0 ? [{ skill, score: shared + 10 * named }] : [];
  });
  scored.sort((a, b) => b.score - a.score || (a.skill.name < b.skill.name ? -1 : 1));
  return scored.map((s) => s.skill);
}
