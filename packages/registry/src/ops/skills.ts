import { z } from 'zod';
import { MemError } from '@mem/core';
import { vaultSkillsCache, type VaultSkill } from '@mem/projector-vault';
import { canReach, type Caller } from '../caller.js';
import type { RegistryContext } from '../context.js';
import { defineOperation } from '../operation.js';
import { skillScopeOf, skillVisible } from './skill-scope.js';

const TOOL = 'skills';
// One per process: every context request matches skills, and the vault's skills change only
// by promote / retire (or a hand edit), which the cache's stamp of the tree sees.
const skillsCache = vaultSkillsCache();

/**
 * The loadable skills this caller may see. A skill whose frontmatter names a `project` (or a
 * `generated_from` such as `poimen/infra-root-causes`) is visible only to callers that reach
 * that project: a skill drafted from a project's notes carries that project's knowledge. A
 * scope that cannot be read hides the skill (fail closed).
 */
export async function visibleSkills(ctx: RegistryContext, caller: Caller): Promise<VaultSkill[]> {
  // A refused SKILL.md is left out: its scope cannot be read, so nobody may see it (nor its name).
  const { skills } = await skillsCache.read(ctx.engine.paths.vaultDir);
  return skills.filter((skill) =>
    skillVisible(skillScopeOf(skill.frontmatter), (project) => canReach(caller, project)),
  );
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** Loadable skills only: never `_drafts`. Frontmatter in JSON, so a client can choose without fetching bodies. */
export const skillList = defineOperation({
  name: 'skill_list',
  summary: 'list loadable skills (never drafts) with their frontmatter',
  input: z.strictObject({ loadable: z.literal(true).optional() }),
  output: z.array(
    z.object({
      name: z.string(),
      description: z.string().nullable(),
      when_to_use: z.string().nullable(),
      generated_from: z.string().nullable(),
      promoted_at: z.string().nullable(),
      frontmatter: z.record(z.string(), z.unknown()),
    }),
  ),
  kind: 'read',
  idempotent: true,
  auth: { access: 'token' },
  http: { method: 'GET', path: '/memory/skills' },
  mcp: {
    tool: TOOL,
    select: { field: 'action', value: 'list' },
    description: 'List loadable skills, or get one with its body.',
  },
  run: async (ctx, caller) =>
    (await visibleSkills(ctx, caller)).map((skill) => ({
      name: skill.name,
      description: str(skill.frontmatter['description']),
      when_to_use: str(skill.frontmatter['when_to_use']),
      generated_from: str(skill.frontmatter['generated_from']),
      promoted_at: str(skill.frontmatter['promoted_at']),
      frontmatter: skill.frontmatter,
    })),
});

/** One loadable skill: frontmatter and body. Unknown and invisible look the same (404). */
export const skillGet = defineOperation({
  name: 'skill_get',
  summary: 'one loadable skill: frontmatter and body',
  input: z.strictObject({
    name: z
      .string()
      .regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'expected a skill name: 1-64 of [a-z0-9._-]'),
  }),
  output: z.object({
    name: z.string(),
    frontmatter: z.record(z.string(), z.unknown()),
    body: z.string(),
  }),
  kind: 'read',
  idempotent: true,
  auth: { access: 'token' },
  http: { method: 'GET', path: '/memory/skills/{name}' },
  mcp: { tool: TOOL, select: { field: 'action', value: 'get' } },
  run: async (ctx, caller, input) => {
    const skill = (await visibleSkills(ctx, caller)).find((s) => s.name === input.name);
    if (!skill) throw new MemError('NOT_FOUND', `no skill ${input.name}`, { name: input.name });
    return { name: skill.name, frontmatter: skill.frontmatter, body: skill.body };
  },
});
