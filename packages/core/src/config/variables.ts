import { z } from 'zod';
import { DEFAULT_ORIENT_BUDGET_TEXT, orientBudgetSchema } from '../items/orient-budget.js';

/** One environment variable mem reads: how its text parses, what applies when it is unset, what it means. */
export interface ConfigVariable<T> {
  /** Parses the variable's text (never empty unless `emptyIsValue`). */
  schema: z.ZodType<T, string>;
  /** What applies when it is unset, as the README's table says it. */
  default: string;
  /** One line for the README's table. */
  description: string;
  /** An empty value means something (no prefix); otherwise empty counts as unset. */
  emptyIsValue?: boolean;
}

const text = z.string();

const wholeNumber = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, 'expected a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

const decimal = (min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+(\.\d+)?$/, 'expected a decimal number such as 0.5')
    .transform(Number)
    .pipe(z.number().min(min).max(max));

/** The signals rank fusion weighs (query's SIGNALS): a weight for another name is a typo. */
export const FUSION_SIGNALS = ['keyword', 'vector_text', 'vector_symptom'] as const;
export type FusionSignal = (typeof FUSION_SIGNALS)[number];

/** `keyword=1,vector_text=0.1`: the syntax of MEM_FUSION_WEIGHTS and of `--weights`. */
export const fusionWeightsSchema = z.string().transform((value, ctx) => {
  const out: Partial<Record<FusionSignal, number>> = {};
  for (const part of value.split(',')) {
    const [signal, weight, ...rest] = part.split('=').map((s) => s.trim());
    if (
      !FUSION_SIGNALS.includes(signal as FusionSignal) ||
      weight === undefined ||
      rest.length > 0
    ) {
      ctx.addIssue({
        code: 'custom',
        message: `expected signal=weight pairs, the signals ${FUSION_SIGNALS.join(', ')}; got ${JSON.stringify(part.trim())}`,
      });
      return z.NEVER;
    }
    if (signal! in out) {
      ctx.addIssue({ code: 'custom', message: `${signal} is given twice` });
      return z.NEVER;
    }
    const parsed = decimal(0, 100).safeParse(weight);
    if (!parsed.success) {
      ctx.addIssue({
        code: 'custom',
        message: `${signal}: expected a weight from 0 to 100, got ${JSON.stringify(weight)}`,
      });
      return z.NEVER;
    }
    out[signal as FusionSignal] = parsed.data;
  }
  return out;
});

/** Any non-empty value turns it on. */
const flag = z.string().transform(() => true);

/** pgvector indexes at most 2000 dimensions (embed's MAX_DIMS). */
const MAX_DIMS = 2000;

/**
 * Every variable mem reads, in the README's order. Why one table: the README's configuration
 * table is tested against it, and `loadConfig` is the only reader, so a variable cannot be read
 * without being documented, nor documented without being read.
 */
export const CONFIG_VARIABLES = {
  MEM_ROOT: {
    schema: text,
    default: 'the current directory',
    description: 'data root (`--root` wins)',
  },
  MEM_TOKEN: {
    schema: text,
    default: 'none',
    description: 'the token `mem mcp` answers with (`mem token mint`)',
  },
  MEM_LLM_URL: {
    schema: text,
    default: 'none: the heuristic controller',
    description:
      'chat completions for the `openai` gate controller (any OpenAI-compatible endpoint)',
  },
  MEM_LLM_MODEL: {
    schema: text,
    default: 'none (required with `MEM_LLM_URL`)',
    description: 'the chat model',
  },
  MEM_LLM_KEY: {
    schema: text,
    default: 'none',
    description:
      'sent as `apikey` and `Authorization: Bearer`; also the embeddings and rerank key when theirs is unset',
  },
  MEM_EMBED_URL: {
    schema: text,
    default: 'none: the deterministic hash embedder',
    description: '`/v1/embeddings` for the vector projection; changing it is a rebuild',
  },
  MEM_EMBED_MODEL: {
    schema: text,
    default: 'none (required with `MEM_EMBED_URL`)',
    description: 'the embedding model',
  },
  MEM_EMBED_KEY: {
    schema: text,
    default: '`MEM_LLM_KEY`',
    description: 'the embeddings endpoint key',
  },
  MEM_EMBED_DIMS: {
    schema: wholeNumber(1, MAX_DIMS),
    default: '768',
    description: 'embedding dimension, 1 to 2000; changing it is a rebuild',
  },
  MEM_EMBED_BATCH: {
    schema: wholeNumber(1, 4096),
    default: '64',
    description:
      'texts per embeddings request; a 413 halves it down to 1 (TEI refuses more than 32 by default)',
  },
  MEM_EMBED_TIMEOUT_MS: {
    schema: wholeNumber(1, 3_600_000),
    default: '60000',
    description: 'per-attempt timeout of an embeddings request',
  },
  MEM_EMBED_RETRIES: {
    schema: wholeNumber(0, 10),
    default: '3',
    description: 'retries with backoff on 429, 5xx and network errors (at most 10)',
  },
  MEM_EMBED_TRUNCATE: {
    schema: z.enum(['true', 'false']).transform((v) => v === 'true'),
    default: 'false',
    description:
      "`true`: send `truncate: true`, so a server that supports it (TEI) cuts a text longer than the model's window",
  },
  MEM_EMBED_QUERY_PREFIX: {
    schema: text,
    default: "the model's: `search_query: ` for nomic-embed-text, `query: ` for e5, else none",
    description: 'put before a question (set empty for none); changing it is a rebuild',
    emptyIsValue: true,
  },
  MEM_EMBED_DOCUMENT_PREFIX: {
    schema: text,
    default: "the model's: `search_document: ` for nomic-embed-text, `passage: ` for e5, else none",
    description: 'put before a stored text (set empty for none); changing it is a rebuild',
    emptyIsValue: true,
  },
  MEM_RERANK_URL: {
    schema: text,
    default: 'none: no reranking',
    description: 'optional `/v1/rerank` for `mem query`',
  },
  MEM_RERANK_MODEL: { schema: text, default: 'none', description: 'the rerank model' },
  MEM_RERANK_KEY: {
    schema: text,
    default: '`MEM_LLM_KEY`',
    description: 'the rerank endpoint key',
  },
  MEM_QUERY_FLOOR_SIMILARITY: {
    schema: decimal(0, 1),
    default: '0.45 (hash embedder), 0.6 (a model)',
    description:
      "minimum cosine similarity of a vector hit (0–1); each answer's `recall.floor` says which floor was used",
  },
  MEM_QUERY_FLOOR_COVERAGE: {
    schema: decimal(0, 1),
    default: '0.34',
    description: 'share of the searched terms a keyword hit holds (0–1)',
  },
  MEM_QUERY_FLOOR_KEYWORD: {
    schema: decimal(0, 1000),
    default: '1.5',
    description: 'minimum normalised BM25 of a keyword hit',
  },
  MEM_FUSION_WEIGHTS: {
    schema: fusionWeightsSchema,
    default: '`keyword=1,vector_text=0.1,vector_symptom=1` (hash embedder), all 1 (a model)',
    description:
      "rank-fusion weights; signals left out keep the default; each answer's `recall.weights` says which were used; `mem eval retrieval --floor --weights` sweeps both",
  },
  DATABASE_URL: {
    schema: text,
    default: 'embedded PGlite under `.mem/pg`',
    description:
      "Postgres with pgvector ≥ 0.7 for the vector projection (PGlite is held by one process at a time: while `mem serve` runs, CLI reads go through its socket, and one it cannot forward answers on keywords; a command that needs it refuses naming the holder's pid and command line, from the `.mem/pg.holder` note the holder writes)",
  },
  MEM_CLAUDE_PROJECTS: {
    schema: text,
    default: '`~/.claude/projects`',
    description: 'where `claude:<dir>` sources resolve',
  },
  MEM_PI_SESSIONS: {
    schema: text,
    default: '`~/.pi/agent/sessions`',
    description: 'where `pi:<dir>` sources resolve',
  },
  MEM_CODEX_SESSIONS: {
    schema: text,
    default: '`~/.codex/sessions`',
    description: 'where `codex:<dir>` sources resolve',
  },
  MEM_RATE_BURST: {
    schema: wholeNumber(0, Number.MAX_SAFE_INTEGER),
    default: '10',
    description: '`mem serve`: requests per second per token (`--rate-burst` wins; 0: off)',
  },
  MEM_RATE_INGEST_PER_HOUR: {
    schema: wholeNumber(0, Number.MAX_SAFE_INTEGER),
    default: '100',
    description: '`mem serve`: ingest jobs per hour per token (`--rate-ingest` wins; 0: off)',
  },
  MEM_RATE_QUERY_PER_HOUR: {
    schema: wholeNumber(0, Number.MAX_SAFE_INTEGER),
    default: '1000',
    description: '`mem serve`: queries per hour per token (`--rate-query` wins; 0: off)',
  },
  MEM_NOW: {
    schema: z.iso.datetime({
      offset: false,
      message: 'expected an ISO-8601 UTC timestamp such as 2026-01-31T09:00:00Z',
    }),
    default: 'the system clock',
    description:
      'the clock freshness verdicts are read against (expired, stale, open days): fixtures and reviews of a past or future day; never the clock of tokens or of the log',
  },
  MEM_ORIENT_BUDGET: {
    schema: orientBudgetSchema,
    default: `\`${DEFAULT_ORIENT_BUDGET_TEXT}\``,
    description:
      '`mem orient`: UTF-8 bytes per section (`section=bytes` pairs; rules and facts are per project and refuse a write over them)',
  },
  MEM_DEBUG: {
    schema: flag,
    default: 'off',
    description: 'any value: a runtime error also prints its stack on stderr',
  },
  MEM_TEST_PGLITE_TEMPLATE: {
    schema: text,
    default: 'none',
    description:
      'test suite only: an initialised PGlite cluster a new embedded projection copies instead of running initdb',
  },
} as const satisfies Record<string, ConfigVariable<unknown>>;

export type ConfigVariableName = keyof typeof CONFIG_VARIABLES;
