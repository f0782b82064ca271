import { z } from 'zod';
import { queryIdField } from '@mem/core';
import { CONTROLLERS } from '@mem/ingest/definitions';
import { defineOperation, type LocalOnly } from '../operation.js';
import { dryRunReport, ingestReport, synthesizeReport } from './local-run-output.js';
import {
  dryRunText,
  failedRuns,
  ingestText,
  synthesizeText,
  unreadSourceLines,
} from './local-run-text.js';
import { projectInput } from './schemas.js';
import { loadIngest } from '../ingest-module.js';

/*
 * Trigger: the sources a project's standing queries name are paths on this machine (a Claude
 * projects directory, a glob of pi sessions). Why local-only: a token grants a project's memory,
 * not the host's file system, and a run takes minutes with a progress line; a remote caller
 * posts its transcript to ingest_submit, a job with a status URL, instead. Outcome: a CLI command
 * of the local root of trust, with no HTTP route and no MCP tool.
 */
const LOCAL: LocalOnly = {
  why: "reads the sources the project's standing queries name on this machine's file system, for minutes; remote callers post transcripts to ingest_submit",
};

const controllerOption = {
  field: 'controller',
  flag: '--controller <name>',
  description: `gate controller: ${CONTROLLERS.join('|')} (default: openai when MEM_LLM_URL is set, else heuristic)`,
} as const;

/** `mem ingest`: the gated loop over every new chunk of the project's sources, or (`dry_run`) what it would read. */
export const ingestLocal = defineOperation({
  name: 'ingest_local',
  summary:
    "read the project's sources chunk by chunk and keep what answers its standing queries (queries/<project>.yaml)",
  input: z.strictObject({
    project: projectInput,
    query: queryIdField.optional(),
    controller: z.enum(CONTROLLERS).optional(),
    dry_run: z.boolean().default(false),
  }),
  output: z.union([dryRunReport, ingestReport]),
  kind: 'write',
  idempotent: true,
  auth: { access: 'admin', project: 'project' },
  // The run catches the projections up under its extraction lock; a dry run must create nothing.
  reads: 'self',
  local: LOCAL,
  cli: {
    command: ['ingest'],
    options: [
      {
        field: 'project',
        flag: '--project <name>',
        description: 'project whose standing queries to run',
        required: true,
      },
      { field: 'query', flag: '--query <id>', description: 'only this standing query' },
      controllerOption,
      {
        field: 'dry_run',
        flag: '--dry-run',
        description:
          'only report what would be read: sources, records, chunks, tokens; no model calls, nothing written',
        parse: 'boolean',
      },
    ],
    text: (out) => ('file' in out ? dryRunText(out) : ingestText(out)),
    notes: (out) => ('file' in out ? [] : unreadSourceLines(out)),
    failure: (out) => ('file' in out ? null : failedRuns(out.queries)),
    progress: true,
  },
  run: async (ctx, _caller, input, effects) => {
    const run = {
      engine: ctx.engine,
      project: input.project,
      config: ctx.config,
      ...(input.controller ? { controller: input.controller } : {}),
    };
    const { localDryRun, localIngest } = await loadIngest();
    if (input.dry_run) return localDryRun(run);
    const progress = effects?.progress;
    return localIngest({
      ...run,
      ...(input.query !== undefined ? { queryId: input.query } : {}),
      ...(progress
        ? {
            onProgress: (p) =>
              progress(
                `ingest ${input.project}: ${p.chunks} chunks read, ${p.used} memory updates (${p.source})`,
              ),
          }
        : {}),
    });
  },
});

/** `mem synthesize`: the L2 pass over the project's current L1 memories, with its synthesis question. */
export const synthesizeLocal = defineOperation({
  name: 'synthesize_local',
  summary:
    "the L2 pass: the gated loop over the project's current L1 memories with its synthesis question",
  input: z.strictObject({ project: projectInput, controller: z.enum(CONTROLLERS).optional() }),
  output: synthesizeReport,
  kind: 'write',
  idempotent: true,
  auth: { access: 'admin', project: 'project' },
  reads: 'self',
  local: LOCAL,
  cli: {
    command: ['synthesize'],
    options: [
      {
        field: 'project',
        flag: '--project <name>',
        description: 'project to synthesise',
        required: true,
      },
      { ...controllerOption, description: `gate controller: ${CONTROLLERS.join('|')}` },
    ],
    text: synthesizeText,
    failure: (out) => failedRuns([out]),
  },
  run: async (ctx, _caller, input) =>
    (await loadIngest()).localSynthesize({
      engine: ctx.engine,
      project: input.project,
      config: ctx.config,
      ...(input.controller ? { controller: input.controller } : {}),
    }),
});
