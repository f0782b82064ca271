import { qwenTokenizer } from '@mem/chunk';
import type { MemConfig } from '@mem/core';
import type { Engine } from '@mem/engine';
import { chooseController, type ControllerName } from './controllers.js';
import { dryRun, type DryRunReport } from './dry-run.js';
import { ingest, type IngestProgress, type IngestReport } from './ingest.js';
import { loadStandingQueries } from './standing-queries.js';
import { synthesize, type SynthesizeReport } from './synthesize.js';

/** A run over a project's standing queries (queries/<project>.yaml) and the sources they name on this machine. */
export interface LocalRunOptions {
  engine: Engine;
  project: string;
  /** Where sources resolve and which controller is the default (loadConfig's result). */
  config: MemConfig;
  /** The gate controller asked for (default: openai when MEM_LLM_URL is set, else heuristic). */
  controller?: ControllerName;
}

/** `mem ingest --dry-run`: what an ingest of the project's sources would read; no model calls, nothing written. */
export async function localDryRun(options: LocalRunOptions): Promise<DryRunReport> {
  const queries = loadStandingQueries(options.engine.paths.queriesDir, options.project, {
    config: options.config,
  });
  return dryRun(queries, qwenTokenizer());
}

/** `mem ingest`: the gated loop over every new chunk of the project's sources, per standing query (or the one named). */
export async function localIngest(
  options: LocalRunOptions & { queryId?: string; onProgress?: (progress: IngestProgress) => void },
): Promise<IngestReport> {
  const queries = loadStandingQueries(options.engine.paths.queriesDir, options.project, {
    config: options.config,
  });
  const tokenizer = qwenTokenizer();
  return ingest({
    engine: options.engine,
    config: queries,
    ...(options.queryId !== undefined ? { queryId: options.queryId } : {}),
    controller: chooseController(options.controller, tokenizer, options.config),
    tokenizer,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
}

/** `mem synthesize`: the L2 pass over the project's current L1 memories. */
export async function localSynthesize(options: LocalRunOptions): Promise<SynthesizeReport> {
  const queries = loadStandingQueries(options.engine.paths.queriesDir, options.project, {
    config: options.config,
  });
  const tokenizer = qwenTokenizer();
  return synthesize({
    engine: options.engine,
    config: queries,
    controller: chooseController(options.controller, tokenizer, options.config, 'L2'),
    tokenizer,
  });
}
