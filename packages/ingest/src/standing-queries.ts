import { existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, normalize, resolve } from 'node:path';
import { globSync } from 'tinyglobby';
import { LineCounter, parseDocument, isNode, type Document } from 'yaml';
import { z } from 'zod';
import {
  MemError,
  citedDirectoriesField,
  issueValue,
  projectNameSchema,
  queryIdField,
  type MemConfig,
} from '@mem/core';
import { TRANSCRIPT_KINDS, type TranscriptKind } from '@mem/sources';
import { citedDirectoryAbsent } from './cited-directories.js';

/** Source kinds a standing-query file may name: the transcript formats @mem/sources reads. */
export const SOURCE_KINDS = TRANSCRIPT_KINDS;
export type SourceKind = TranscriptKind;
const question = z.string().trim().min(1, 'expected a non-empty question');

const sourceEntry = z
  .string()
  .regex(
    /^[a-z]+:.+$/,
    'expected "<kind>:<name or path>", e.g. "claude:-home-me-proj" or "pi:./sessions"',
  );

const fileSchema = z.strictObject({
  project: projectNameSchema,
  sources: z
    .array(
      z.union([
        sourceEntry,
        /** A source with a filter: `{ source: "codex:2026/11", cwd: "/home/me/proj" }`. */
        z.strictObject({
          source: sourceEntry,
          cwd: z.string().trim().min(1, 'expected a directory'),
        }),
      ]),
    )
    .min(1, 'expected at least one source'),
  queries: z
    .array(z.strictObject({ id: queryIdField, question }))
    .min(1, 'expected at least one query'),
  synthesis: z.strictObject({ question, exit_gate: z.boolean().default(true) }).optional(),
  /** Tokens per chunk (the paper's 5000). */
  chunk_tokens: z.int().min(256).max(32_768).default(5000),
  /** Token budget of each memory (the paper's 1024). */
  memory_budget: z.int().min(64).max(8192).default(1024),
  /**
   * The directories (relative to the data root) this project's items may cite; read by the
   * registry's source check (packages/registry/src/ops/items/cited-roots.ts), validated here too.
   */
  cites: citedDirectoriesField.optional(),
});

/** A source entry resolved to something on disk. */
export interface ResolvedSource {
  /** The entry as written, e.g. `claude:-home-me-proj`. */
  entry: string;
  kind: SourceKind;
  /** A directory to walk, or explicit files (a glob or a single file). */
  dir?: string;
  files?: string[];
  /** Codex only: read only the sessions that started in this directory or under it. */
  cwd?: string;
  /** True when `files` is a glob's expansion at load time: a file made later is not in it. */
  globbed?: true;
}

export interface StandingQueries {
  file: string;
  project: string;
  sources: ResolvedSource[];
  queries: { id: string; question: string }[];
  synthesis: { question: string; exit_gate: boolean } | null;
  chunkTokens: number;
  memoryBudget: number;
}

export interface LoadOptions {
  /** Where `claude:`, `pi:` and `codex:` sources resolve (MEM_CLAUDE_PROJECTS, MEM_PI_SESSIONS, MEM_CODEX_SESSIONS); absent: the defaults. */
  config?: MemConfig;
  /** Expands a glob relative to `cwd` into sorted absolute file paths (default: tinyglobby). */
  glob?: (pattern: string, cwd: string) => string[];
  /**
   * False: check the entries' syntax only and resolve none on disk (`sources` comes back empty).
   * For a caller that brings its own records (a transcript posted over HTTP): the file's
   * directories need not exist on the machine that serves it. Default true.
   */
  resolveSources?: boolean;
}

/**
 * Loads and validates `queries/<project>.yaml` (seed 001 "Standing queries"). Every error is
 * CONFIG_INVALID naming the file, the YAML path and line, and what was expected: an unknown
 * source kind, an empty question, a duplicate id, a missing directory, a project mismatch.
 */
export function loadStandingQueries(
  queriesDir: string,
  project: string,
  options: LoadOptions = {},
): StandingQueries {
  const file = join(queriesDir, `${project}.yaml`);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new MemError(
      'CONFIG_INVALID',
      `${file}: cannot read the standing queries of project ${project} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); create it as in the README`,
      { file },
    );
  }
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  if (doc.errors.length > 0) {
    const first = doc.errors[0]!;
    const line = lines.linePos(first.pos[0]).line;
    throw new MemError(
      'CONFIG_INVALID',
      `${file}:${line}: not valid YAML: ${first.message.split('\n')[0]}`,
      { file, line },
    );
  }
  const fail = (path: (string | number)[], message: string): never => {
    const line = lineOf(doc, lines, path);
    const where =
      path.length > 0
        ? path
            .map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`))
            .join('')
            .replace(/^\./, '')
        : '(file)';
    throw new MemError('CONFIG_INVALID', `${file}${line ? `:${line}` : ''}: ${where}: ${message}`, {
      file,
      path: where,
      ...(line ? { line } : {}),
    });
  };

  const raw: unknown = doc.toJS();
  const parsed = fileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.map((p) => (typeof p === 'number' ? p : String(p)));
    const message =
      issue.code === 'unrecognized_keys'
        ? `unexpected field ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`
        : issue.code === 'invalid_type' && issueValue(raw, issue.path) === undefined
          ? `missing field, ${issue.message.replace(/^Invalid input: /, '')}`
          : issue.code === 'invalid_union'
            ? // A source entry that is neither form: zod alone says only "Invalid input".
              `expected "<kind>:<name or path>", or a mapping with "source" and "cwd" (a Codex filter)${fieldsOf(issueValue(raw, issue.path))}`
            : issue.message.replace(/^Invalid input: /, '');
    fail(path, message);
  }
  const data = parsed.data!;
  if (data.project !== project)
    fail(
      ['project'],
      `expected ${JSON.stringify(project)} (the file is queries/${project}.yaml), got ${JSON.stringify(data.project)}`,
    );
  const seen = new Map<string, number>();
  data.queries.forEach((q, i) => {
    if (seen.has(q.id))
      fail(
        ['queries', i, 'id'],
        `duplicate query id ${JSON.stringify(q.id)} (first at queries[${seen.get(q.id)}])`,
      );
    seen.set(q.id, i);
  });

  if (options.resolveSources !== false)
    data.cites?.forEach((dir, i) => {
      const absent = citedDirectoryAbsent(dirname(queriesDir), dir);
      if (absent !== null) fail(['cites', i], absent);
    });
  const config = options.config ?? {};
  const base = dirname(file);
  const sources =
    options.resolveSources === false
      ? []
      : data.sources.map((entry, i) => {
          const [text, cwd] =
            typeof entry === 'string' ? [entry, undefined] : [entry.source, entry.cwd];
          const at = typeof entry === 'string' ? ['sources', i] : ['sources', i, 'source'];
          const resolved = resolveSource(
            text,
            base,
            config,
            options.glob ?? defaultGlob,
            (message) => fail(at, message),
          );
          return cwd === undefined
            ? resolved
            : {
                ...resolved,
                cwd: sessionDirectory(resolved.kind, cwd, (message) =>
                  fail(['sources', i, 'cwd'], message),
                ),
              };
        });
  return {
    file,
    project,
    sources,
    queries: data.queries,
    synthesis: data.synthesis ?? null,
    chunkTokens: data.chunk_tokens,
    memoryBudget: data.memory_budget,
  };
}

/** The query ids to run: all of them, or the one asked for (an unknown id names the known ones). */
export function selectQueries(config: StandingQueries, id?: string): StandingQueries['queries'] {
  if (id === undefined) return config.queries;
  const query = config.queries.find((q) => q.id === id);
  if (!query) {
    throw new MemError(
      'CONFIG_INVALID',
      `${config.file}: no query with id ${JSON.stringify(id)}; the queries are ${config.queries.map((q) => q.id).join(', ')}`,
      { file: config.file, field: 'queries[].id', id },
    );
  }
  return [query];
}

function defaultGlob(pattern: string, cwd: string): string[] {
  return globSync(pattern, { cwd, absolute: true, onlyFiles: true }).sort();
}

/** Where a bare `<kind>:<name>` entry resolves, and the variable that moves it (loop has no default root). */
const SESSION_ROOTS: Record<
  Exclude<SourceKind, 'loop'>,
  {
    variable: 'MEM_CLAUDE_PROJECTS' | 'MEM_PI_SESSIONS' | 'MEM_CODEX_SESSIONS';
    fallback: () => string;
  }
> = {
  claude: {
    variable: 'MEM_CLAUDE_PROJECTS',
    fallback: () => join(homedir(), '.claude', 'projects'),
  },
  pi: { variable: 'MEM_PI_SESSIONS', fallback: () => join(homedir(), '.pi', 'agent', 'sessions') },
  codex: { variable: 'MEM_CODEX_SESSIONS', fallback: () => join(homedir(), '.codex', 'sessions') },
};

function resolveSource(
  entry: string,
  base: string,
  config: MemConfig,
  glob: (pattern: string, cwd: string) => string[],
  fail: (message: string) => never,
): ResolvedSource {
  const colon = entry.indexOf(':');
  const kind = entry.slice(0, colon);
  const value = entry.slice(colon + 1);
  if (!(SOURCE_KINDS as readonly string[]).includes(kind))
    fail(`unknown source kind ${JSON.stringify(kind)}: expected one of ${SOURCE_KINDS.join(', ')}`);
  const sourceKind = kind as SourceKind;
  if (value.startsWith('/') || value.startsWith('.')) {
    const target = isAbsolute(value) ? value : resolve(base, value);
    if (/[*?[\]{}]/.test(value)) {
      const files = glob(value, base);
      if (files.length === 0)
        fail(`the glob ${JSON.stringify(value)} matches no file (relative to ${base})`);
      return { entry, kind: sourceKind, files, globbed: true };
    }
    if (!existsSync(target)) fail(`missing directory or file ${target}`);
    return statSync(target).isDirectory()
      ? { entry, kind: sourceKind, dir: target }
      : { entry, kind: sourceKind, files: [target] };
  }
  if (sourceKind === 'loop')
    fail('a loop source needs a path (starting with / or .) to its artifacts directory');
  const { variable, fallback } = SESSION_ROOTS[sourceKind];
  const root = config[variable] ?? fallback();
  const dir = join(root, value);
  // Codex files its sessions by date (`2026/11/05`), so its names may nest; never out of the root.
  const nests =
    sourceKind === 'codex' &&
    value.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
  if (
    (value.includes('/') && !nests) ||
    value === '..' ||
    value === '.' ||
    !existsSync(dir) ||
    !statSync(dir).isDirectory()
  ) {
    fail(
      `missing directory ${dir} (a ${sourceKind} project directory name resolves under ${root}; set ${variable} to move it)`,
    );
  }
  return { entry, kind: sourceKind, dir };
}

/**
 * A `cwd` filter's directory: absolute, or `~/…` under the home directory. Only Codex needs one:
 * its files are filed by date, while a Claude or pi directory already holds one project.
 */
function sessionDirectory(kind: SourceKind, cwd: string, fail: (message: string) => never): string {
  if (kind !== 'codex')
    fail(
      `a cwd filter applies only to codex sources: a ${kind} directory is already one project's`,
    );
  const dir = cwd === '~' ? homedir() : cwd.startsWith('~/') ? join(homedir(), cwd.slice(2)) : cwd;
  if (/^[A-Za-z]:[\\/]/u.test(dir)) return dir; // a Windows session's cwd, compared as written
  if (!isAbsolute(dir))
    fail(
      `expected an absolute directory (the session's cwd as Codex recorded it), got ${JSON.stringify(cwd)}`,
    );
  // Codex records a resolved cwd: `/a/b/../c` and `/a/c/` name the directory it would write.
  return normalize(dir);
}

/** `, got the fields "a", "b"` for a mapping, `, got <JSON>` for anything else. */
function fieldsOf(input: unknown): string {
  if (input !== null && typeof input === 'object' && !Array.isArray(input))
    return `, got the fields ${Object.keys(input)
      .map((k) => JSON.stringify(k))
      .join(', ')}`;
  return `, got ${JSON.stringify(input) ?? String(input)}`;
}

function lineOf(doc: Document, lines: LineCounter, path: (string | number)[]): number | undefined {
  for (let depth = path.length; depth >= 0; depth--) {
    const node = depth === 0 ? doc.contents : doc.getIn(path.slice(0, depth), true);
    if (isNode(node) && node.range) return lines.linePos(node.range[0]).line;
  }
  return undefined;
}
