import { z } from 'zod';
import { corpusNameField } from '@mem/core';
import { writerOf } from '../caller.js';
import { defineOperation, type LocalOnly } from '../operation.js';
import { projectInput } from './schemas.js';
import { loadIngest } from '../ingest-module.js';

/*
 * Trigger: a reference corpus is a documentation tree on this machine. Why local-only: a token
 * grants a project's memory, not the host's file system, and `sync` re-reads the root the log
 * names. Outcome: add, sync and rm are CLI commands of the local root of trust; list only reads
 * the log, and is local too until a remote caller needs it.
 */
const LOCAL: LocalOnly = {
  why: 'reads (and re-reads) documentation files on this machine; a token grants memory, not the file system',
};

const skippedOut = z.object({ uri: z.string(), reason: z.string() });
const syncOut = z.object({
  project: z.string(),
  name: z.string(),
  root: z.string(),
  globs: z.array(z.string()),
  files: z.object({
    added: z.array(z.string()),
    changed: z.array(z.string()),
    removed: z.array(z.string()),
    unchanged: z.array(z.string()),
  }),
  skipped: z.array(skippedOut),
  refused: z.array(z.object({ uri: z.string(), sha256: z.string() })),
  passages_written: z.number(),
  passages_tombstoned: z.number(),
  seq: z.number().nullable(),
});

type SyncOut = z.infer<typeof syncOut>;

function syncText(out: SyncOut): string {
  const f = out.files;
  const head = `${out.project}/${out.name} (${out.root}): ${f.added.length} added, ${f.changed.length} changed, ${f.removed.length} removed, ${f.unchanged.length} unchanged; ${out.passages_written} passages written, ${out.passages_tombstoned} tombstoned`;
  const skipped = out.skipped.map((s) => `  skipped ${s.uri}: ${s.reason.replace(/_/g, ' ')}`);
  const refused = out.refused.map(
    (r) =>
      `  refused a passage of ${r.uri}: its text was tombstoned before (${r.sha256.slice(0, 12)})`,
  );
  return [head, ...skipped, ...refused].join('\n');
}

const nameOption = {
  field: 'name',
  flag: '--name <name>',
  description: 'corpus name ([a-z0-9._-], unique in the project)',
} as const;

/** `mem ref add PATH|GLOB --project P --name N`: registers a documentation tree and reads it as R passages. */
export const refAdd = defineOperation({
  name: 'ref_add',
  summary:
    'register a documentation tree (a directory, file or glob) as a reference corpus and read it into R passages',
  input: z.strictObject({ path: z.string().min(1), project: projectInput, name: corpusNameField }),
  output: syncOut,
  kind: 'write',
  idempotent: true,
  startsProject: true,
  auth: { access: 'admin', project: 'project' },
  reads: 'self',
  local: LOCAL,
  cli: {
    command: ['ref', 'add'],
    args: ['path'],
    options: [
      {
        field: 'project',
        flag: '--project <name>',
        description: 'project the corpus belongs to',
        required: true,
      },
      { ...nameOption, required: true },
    ],
    text: syncText,
  },
  run: async (ctx, caller, input) =>
    (await loadIngest()).addCorpus(ctx.engine, {
      project: input.project,
      name: input.name,
      target: input.path,
      cwd: process.cwd(),
      writer: writerOf(caller),
    }),
});

/** `mem ref sync [--project P] [--name N]`: re-reads registered corpora and writes what changed. */
export const refSync = defineOperation({
  name: 'ref_sync',
  summary:
    're-read registered reference corpora: changed files supersede their passages, removed files tombstone them',
  input: z.strictObject({ project: projectInput.optional(), name: corpusNameField.optional() }),
  output: z.object({ corpora: z.array(syncOut) }),
  kind: 'write',
  idempotent: true,
  auth: { access: 'admin', project: 'project' },
  reads: 'self',
  local: LOCAL,
  cli: {
    command: ['ref', 'sync'],
    options: [
      { field: 'project', flag: '--project <name>', description: 'only this project’s corpora' },
      { ...nameOption, description: 'only this corpus' },
    ],
    text: (out) =>
      out.corpora.length === 0
        ? 'no reference corpora registered'
        : out.corpora.map(syncText).join('\n'),
  },
  run: async (ctx, caller, input) => ({
    corpora: await (
      await loadIngest()
    ).syncCorpora(ctx.engine, {
      ...(input.project !== undefined ? { project: input.project } : {}),
      ...(input.name !== undefined ? { name: input.name } : {}),
      writer: writerOf(caller),
    }),
  }),
});

/** `mem ref rm N [--project P]`: unregisters a corpus and tombstones its passages. */
export const refRemove = defineOperation({
  name: 'ref_rm',
  summary: 'unregister a reference corpus and tombstone every passage read from it',
  input: z.strictObject({ name: corpusNameField, project: projectInput.optional() }),
  output: z.object({
    project: z.string(),
    name: z.string(),
    passages_tombstoned: z.number(),
    seq: z.number(),
  }),
  kind: 'write',
  idempotent: false,
  destructive: true,
  auth: { access: 'admin', project: 'project' },
  reads: 'self',
  local: LOCAL,
  cli: {
    command: ['ref', 'rm'],
    args: ['name'],
    options: [
      {
        field: 'project',
        flag: '--project <name>',
        description: 'the project holding the corpus (when several do)',
      },
    ],
    text: (out) =>
      `removed corpus ${out.project}/${out.name}: ${out.passages_tombstoned} passages tombstoned (seq ${out.seq})`,
  },
  run: async (ctx, caller, input) =>
    (await loadIngest()).removeCorpus(ctx.engine, {
      name: input.name,
      ...(input.project !== undefined ? { project: input.project } : {}),
      writer: writerOf(caller),
    }),
});

/** `mem ref list [--project P]`: the registered corpora, with their live sources and passages. */
export const refList = defineOperation({
  name: 'ref_list',
  summary: 'list registered reference corpora: root, globs, live source files and passages',
  input: z.strictObject({ project: projectInput.optional() }),
  output: z.object({
    corpora: z.array(
      z.object({
        project: z.string(),
        name: z.string(),
        root: z.string(),
        globs: z.array(z.string()),
        sources: z.number(),
        passages: z.number(),
      }),
    ),
  }),
  kind: 'read',
  idempotent: true,
  auth: { access: 'admin', project: 'project' },
  reads: 'log',
  local: LOCAL,
  cli: {
    command: ['ref', 'list'],
    options: [{ field: 'project', flag: '--project <name>', description: 'only this project' }],
    text: (out) =>
      out.corpora.length === 0
        ? 'no reference corpora registered'
        : out.corpora
            .map(
              (c) =>
                `${c.project}/${c.name}\t${c.root} (${c.globs.join(', ')})\t${c.sources} files, ${c.passages} passages`,
            )
            .join('\n'),
  },
  run: async (ctx, _caller, input) => ({
    corpora: await (
      await loadIngest()
    ).listCorpora(ctx.engine, input.project !== undefined ? [input.project] : undefined),
  }),
});
