import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { MemError, skillNameField, type LogEvent, type Payload } from '@mem/core';
import { foldOf, noteLines, queryTitle, skillNotePath } from '@mem/projector-vault';
import type { VaultFold } from '@mem/projector-vault';
import { requireReach, writerOf, type Caller } from '../caller.js';
import type { RegistryContext } from '../context.js';
import { defineOperation } from '../operation.js';
import { projectInput } from './schemas.js';
import { loadIngest } from '../ingest-module.js';

const TOOL = 'skill_write';

const reasonInput = z
  .string()
  .trim()
  .min(1, 'expected a reason: every promotion and retirement says why')
  .max(2_000);

/** `<project>/<note>`: a query id, or `index` for the project's L2 note. */
const fromInput = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9_-]*\/(?:index|[a-z0-9][a-z0-9_-]*)$/,
    'expected <project>/<note>: a project and a query id (or "index" for the L2 note)',
  );

const skillOut = z.object({
  project: z.string(),
  name: z.string(),
  type: z.enum(['skill_drafted', 'skill_promoted', 'skill_retired']),
  path: z.string(),
  seq: z.number(),
});
type SkillOut = z.infer<typeof skillOut>;

async function projectFold(ctx: RegistryContext, project: string): Promise<VaultFold> {
  const events: LogEvent[] = [];
  for await (const { event } of ctx.engine.read(project)) events.push(event);
  return foldOf(project, events);
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/**
 * A name is this project's when its log drafted it. Any other SKILL.md at either of its paths —
 * hand-placed, or another project's — is not ours to overwrite: CONFLICT, naming the file.
 */
async function requireOwnName(ctx: RegistryContext, fold: VaultFold, name: string): Promise<void> {
  if (fold.skills.has(name)) return;
  for (const draft of [false, true]) {
    const path = skillNotePath(name, draft);
    if (await exists(join(ctx.engine.paths.vaultDir, path)))
      throw new MemError('CONFLICT', `a skill named ${name} already exists at vault/${path}`, {
        name,
        path: `vault/${path}`,
      });
  }
}

async function append(
  ctx: RegistryContext,
  caller: Caller,
  project: string,
  payload: Payload & { name: string },
  path: string,
): Promise<SkillOut> {
  const result = await ctx.engine.append(project, [payload], writerOf(caller));
  return {
    project,
    name: payload.name,
    type: payload.type as SkillOut['type'],
    path: `vault/${path}`,
    seq: result.last_seq,
  };
}

const skillText = (verb: string) => (out: SkillOut) =>
  `${verb} skill ${out.name} in ${out.project}: ${out.path} (seq ${out.seq})`;

/**
 * `mem skill draft`: a SKILL.md composed from the live lines of one memory note, logged whole as
 * `skill_drafted` and projected to `vault/skills/_drafts/<name>/`, where nothing loads it. A
 * second draft of a name replaces the first.
 */
export const skillDraft = defineOperation({
  name: 'skill_draft',
  summary: 'draft a skill from a memory note into vault/skills/_drafts/ (never loaded)',
  input: z.strictObject({
    from: fromInput,
    name: skillNameField.optional(),
    composer: z.enum(['heuristic', 'openai']).optional(),
  }),
  output: skillOut,
  kind: 'write',
  idempotent: false,
  auth: { access: 'token' },
  http: { method: 'POST', path: '/memory/skills/drafts', status: 201 },
  mcp: {
    tool: TOOL,
    select: { field: 'action', value: 'draft' },
    description: 'Draft a skill from a memory note, promote a draft to loadable, or retire one.',
  },
  cli: {
    command: ['skill', 'draft'],
    options: [
      {
        field: 'from',
        flag: '--from <project/note>',
        description: 'the note to draw it from',
        required: true,
      },
      { field: 'name', flag: '--name <name>', description: 'the skill name (default: the note)' },
      {
        field: 'composer',
        flag: '--composer <heuristic|openai>',
        description: 'who writes it (default: openai when MEM_LLM_URL is set)',
      },
    ],
    text: skillText('drafted'),
  },
  run: async (ctx, caller, input) => {
    const [project, note] = input.from.split('/') as [string, string];
    const checked = projectInput.safeParse(project);
    if (!checked.success)
      throw new MemError('INVALID_INPUT', `from: ${checked.error.issues[0]!.message}`, {
        field: 'from',
      });
    requireReach(caller, project);
    const name = skillNameField.safeParse(input.name ?? note);
    if (!name.success)
      throw new MemError('INVALID_INPUT', `name: ${name.error.issues[0]!.message}`, {
        field: 'name',
      });
    const fold = await projectFold(ctx, project);
    const shown = noteLines(fold, note);
    if (!shown)
      throw new MemError('NOT_FOUND', `no memory note ${input.from}`, { from: input.from });
    if (shown.lines.length === 0)
      throw new MemError(
        'NOT_FOUND',
        `memory note ${input.from} has no live line to draw a skill from`,
        {
          from: input.from,
        },
      );
    await requireOwnName(ctx, fold, name.data);
    const title = note === 'index' ? `State of ${project}` : queryTitle(note);
    const { composer, text } = await (
      await loadIngest()
    ).composeSkill(
      {
        name: name.data,
        project,
        from: input.from,
        memory: shown.memory,
        title,
        lines: shown.lines,
      },
      ctx.config,
      input.composer,
    );
    const payload: Payload = {
      type: 'skill_drafted',
      name: name.data,
      from: input.from,
      generated_from: shown.memory,
      composer,
      text,
    };
    return append(ctx, caller, project, payload, skillNotePath(name.data, true));
  },
});

const lifecycleInput = z.strictObject({
  project: projectInput,
  name: skillNameField,
  reason: reasonInput,
});

const lifecycleCli = (verb: string) => ({
  args: ['name'],
  options: [
    {
      field: 'project',
      flag: '--project <name>',
      description: 'the project whose log drafted it',
      required: true,
    },
    {
      field: 'reason',
      flag: '--reason <text>',
      description: 'why (recorded; required)',
      required: true,
    },
  ],
  text: skillText(verb),
});

/**
 * `mem skill promote`: the human move out of `_drafts/` (seed 001's first cycle guard). Needs
 * may_write_rules, not only a project write: a loadable skill is an instruction every agent of
 * the vault may follow, which is what that grant is for.
 */
export const skillPromote = defineOperation({
  name: 'skill_promote',
  summary: 'promote a drafted skill to vault/skills/<name>/, where agents load it',
  input: lifecycleInput,
  output: skillOut,
  kind: 'write',
  idempotent: false,
  auth: { access: 'token', project: 'project', capability: 'may_write_rules' },
  http: { method: 'POST', path: '/memory/skills/{name}/promote', status: 201 },
  mcp: { tool: TOOL, select: { field: 'action', value: 'promote' } },
  cli: { command: ['skill', 'promote'], ...lifecycleCli('promoted') },
  run: async (ctx, caller, input) => {
    requireReach(caller, input.project);
    const fold = await projectFold(ctx, input.project);
    if ((fold.skills.get(input.name)?.draft ?? null) === null)
      throw new MemError('NOT_FOUND', `no draft of skill ${input.name} in ${input.project}`, {
        name: input.name,
        project: input.project,
      });
    await requireOwnName(ctx, fold, input.name);
    const payload: Payload = { type: 'skill_promoted', name: input.name, reason: input.reason };
    return append(ctx, caller, input.project, payload, skillNotePath(input.name, false));
  },
});

/** `mem skill retire`: the loadable skill leaves `vault/skills/`; its events stay in the log. */
export const skillRetire = defineOperation({
  name: 'skill_retire',
  summary: 'retire a promoted skill: it leaves vault/skills/ and is no longer loaded',
  input: lifecycleInput,
  output: skillOut,
  kind: 'write',
  idempotent: false,
  destructive: true,
  auth: { access: 'token', project: 'project' },
  http: { method: 'POST', path: '/memory/skills/{name}/retire', status: 201 },
  mcp: { tool: TOOL, select: { field: 'action', value: 'retire' } },
  cli: { command: ['skill', 'retire'], ...lifecycleCli('retired') },
  run: async (ctx, caller, input) => {
    requireReach(caller, input.project);
    const fold = await projectFold(ctx, input.project);
    if ((fold.skills.get(input.name)?.promoted ?? null) === null)
      throw new MemError('NOT_FOUND', `no promoted skill ${input.name} in ${input.project}`, {
        name: input.name,
        project: input.project,
      });
    const payload: Payload = { type: 'skill_retired', name: input.name, reason: input.reason };
    return append(ctx, caller, input.project, payload, skillNotePath(input.name, false));
  },
});
