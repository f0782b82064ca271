import { z } from 'zod';
import { projectNameSchema } from '@mem/core';

/**
 * The scope of a skill, read strictly from its frontmatter. `project` is one project name or a
 * non-empty list of them; `generated_from` is `<project>` or `<project>/<what>`. Either field,
 * when present, must be well formed: `project: 7`, `project: []`, `project:` (null) or
 * `generated_from: [x]` is not "no scope" but an unreadable one.
 */
const skillScopeSchema = z.object({
  project: z.union([projectNameSchema, z.array(projectNameSchema).min(1)]).optional(),
  generated_from: z
    .string()
    .transform((from) => from.split('/')[0]!)
    .pipe(projectNameSchema)
    .optional(),
});

/** What a skill's frontmatter says about who may load it. */
export type SkillScope =
  { kind: 'unscoped' } | { kind: 'projects'; projects: readonly string[] } | { kind: 'malformed' };

/** The projects a skill is scoped to (every one of them), none, or malformed. */
export function skillScopeOf(frontmatter: Readonly<Record<string, unknown>>): SkillScope {
  if (!Object.hasOwn(frontmatter, 'project') && !Object.hasOwn(frontmatter, 'generated_from'))
    return { kind: 'unscoped' };
  // A key present with no value (YAML `project:`) reads as null, which the schema refuses.
  const scope = skillScopeSchema.safeParse({
    project: frontmatter['project'],
    generated_from: frontmatter['generated_from'],
  });
  if (!scope.success) return { kind: 'malformed' };
  const { project, generated_from: from } = scope.data;
  const projects = new Set<string>([
    ...(project === undefined ? [] : typeof project === 'string' ? [project] : project),
    ...(from === undefined ? [] : [from]),
  ]);
  return { kind: 'projects', projects: [...projects].sort() };
}

/**
 * Whether a caller that reaches `reaches(project)` may load a skill of this scope. Fails closed:
 * a malformed scope is visible to nobody with a token, a scope of several projects only to a
 * caller that reaches every one of them (the skill carries knowledge of each).
 */
export function skillVisible(scope: SkillScope, reaches: (project: string) => boolean): boolean {
  if (scope.kind === 'unscoped') return true;
  if (scope.kind === 'malformed') return false;
  return scope.projects.every(reaches);
}
