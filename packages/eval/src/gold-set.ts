import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { MemError, unreadableFileCode } from '@mem/core';

/** The key under which a gold file lists what the L2 synthesis note should say. */
export const SYNTHESIS_KEY = 'synthesis';

export const GOLD_SPLITS = ['tuning', 'held-out'] as const;
export type GoldSplit = (typeof GOLD_SPLITS)[number];

const text = z.string().trim().min(1, 'expected a non-empty string');
/** A keyword: a phrase the line must contain, or alternatives of which it must contain one. */
const keyword = z.union([text, z.array(text).min(1, 'expected at least one alternative')]);

const findingSchema = z.strictObject({
  id: text,
  statement: text,
  keywords: z
    .array(keyword)
    .min(1, 'expected at least one keyword')
    .max(5, 'expected at most 5 keywords'),
});

const fileSchema = z.strictObject({
  path: text,
  kind: z.enum(['claude', 'pi']),
  split: z.enum(GOLD_SPLITS),
  /** Only the first `lines` lines of the transcript (a slice for quick runs). */
  lines: z.int().positive().optional(),
  summary: text,
  findings: z.record(z.string(), z.array(findingSchema)),
});

const goldSchema = z.strictObject({
  version: z.literal(1),
  labelled_by: text,
  /** The directory the files' paths are relative to, itself relative to the gold file. */
  transcripts: text,
  queries: z
    .array(z.strictObject({ id: text, question: text }))
    .min(1, 'expected at least one standing query'),
  synthesis: z.strictObject({ question: text, exit_gate: z.boolean() }),
  noise: z.array(z.strictObject({ id: text, pattern: text })),
  files: z.array(fileSchema).min(1, 'expected at least one file'),
});

export type GoldSet = z.infer<typeof goldSchema>;
export type GoldFile = z.infer<typeof fileSchema>;
export type GoldFinding = z.infer<typeof findingSchema>;
export type Keyword = z.infer<typeof keyword>;

/** A gold set read from disk: its transcripts directory resolved. */
export interface LoadedGoldSet extends GoldSet {
  file: string;
  transcriptsDir: string;
}

/**
 * A gold set from its JSON text, checked: every file's findings sit under a question the set asks
 * (or `synthesis`), finding ids are unique across the set, every noise pattern compiles.
 * CONFIG_INVALID names the file and the path of what is wrong.
 */
export function parseGoldSet(source: string, file: string): GoldSet {
  const fail = (where: string, message: string): never => {
    throw new MemError('CONFIG_INVALID', `${file}: ${where}: ${message}`, { file, path: where });
  };
  let json: unknown;
  try {
    json = JSON.parse(source);
  } catch (error) {
    return fail('(file)', `not JSON (${(error as Error).message})`);
  }
  const parsed = goldSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return fail(
      issue.path
        .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
        .join('')
        .replace(/^\./, '') || '(file)',
      issue.message,
    );
  }
  const gold = parsed.data;
  gold.noise.forEach((noise, i) => {
    try {
      new RegExp(noise.pattern, 'iu');
    } catch (error) {
      fail(`noise[${i}].pattern`, `not a regular expression (${(error as Error).message})`);
    }
  });
  const keys = new Set([...gold.queries.map((q) => q.id), SYNTHESIS_KEY]);
  const ids = new Set<string>();
  gold.files.forEach((entry, i) => {
    for (const [key, findings] of Object.entries(entry.findings)) {
      if (!keys.has(key))
        fail(
          `files[${i}].findings.${key}`,
          `not a question of this set: expected one of ${[...keys].join(', ')}`,
        );
      for (const finding of findings) {
        if (ids.has(finding.id))
          fail(`files[${i}].findings.${key}`, `duplicate finding id ${JSON.stringify(finding.id)}`);
        ids.add(finding.id);
      }
    }
  });
  return gold;
}

/** The gold set at `file`, with its transcripts directory resolved against the file's own. */
export function loadGoldSet(file: string): LoadedGoldSet {
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch (error) {
    // A file that is not there is NOT_FOUND, as every file the CLI is given (unreadableFileCode).
    throw new MemError(
      unreadableFileCode(error),
      `${file}: cannot read the gold set (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      { file },
    );
  }
  const gold = parseGoldSet(source, file);
  return { ...gold, file, transcriptsDir: resolve(dirname(file), gold.transcripts) };
}
