import { z } from 'zod';
import { projectNameSchema } from '@mem/core';

/** A content sha: what `mem skill draft` writes as `generated_from` (the memory it drew on). */
const MEMORY_SHA = /^[0-9a-f]{64}$/;

/**
 * `generated_from` as a project, or null when it names a memory by sha (which names no project:
 * Trigger: a drafted skill. Why: reading the sha as a project name hid every drafted skill.
 * Outcome: its scope is the `project` beside it, which must then be there).
 */
const generatedFromSchema = z.union([
  z
    .string()
    .regex(MEMORY_SHA)
    .transform(() => null),
  z
    .string()
    .transform((from) => from.split('/')[0]!)
    .pipe(projectNameSchema),
]);

/**
 * The scope of a skill, read strictly from its frontmatter. `project` is one project name or a
 * non-empty list of them; `generated_from` is `<project>`, `<project>/<what>`, or a memory's
 * content sha with `project` beside it. Either field, when present, must be well formed:
 * `project: 7`, `project: []`, `project:` (null), `generated_from: [x]` or a sha with no
 * `project` is not "no scope" but an unreadable one.
 */
const skillScopeSchema = z
  .object({
    project: z.union([projectNameSchema, z.array(projectNameSchema).min(1)]).optional(),
    generated_from: generatedFromSchema.optional(),
  })
  .refine((scope) => scope.generated_from !== null || scope.project !== undefined, {
    message: 'a generated_from sha names no project: expected project beside it',
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
    ...(from === undefined || from === null ? [] : [from]),
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
