import type { Command } from 'commander';
import { CITATION_EXCERPT_CHARS, queryMemory, type CitationMode, type QueryHit, type QueryResult, type RecallLevel } from '@mem/query';
import { CITATION_MODES, DEFAULT_CITATIONS } from '@mem/registry';
import { openExistingEngine, type GlobalOptions } from '../context.js';
import { UsageError } from '../exit.js';
import { writeJson, writeLine, type CliIO } from '../io.js';
import { positiveIntFlag, projectFlag } from '../parse-flags.js';
import { openQueryDeps } from '../query-deps.js';

const LEVELS: readonly RecallLevel[] = ['L0', 'L1', 'L2', 'R'];

function levelsFlag(value: string | undefined): RecallLevel[] | undefined {
  if (value === undefined) return undefined;
  const levels = value.split(',').map((l) => l.trim()).filter((l) => l !== '');
  const unknown = levels.filter((l) => !(LEVELS as readonly string[]).includes(l));
  if (levels.length === 0 || unknown.length > 0) throw new UsageError(`--levels: expected a comma-separated list of ${LEVELS.join(', ')}, got ${JSON.stringify(value)}`);
  return levels as RecallLevel[];
}

/** `--citations`, defaulting as the registry's query operation does, so the CLI and HTTP answer alike. */
function citationsFlag(value: string | undefined): CitationMode {
  if (value === undefined) return DEFAULT_CITATIONS;
  if (!(CITATION_MODES as readonly string[]).includes(value)) throw new UsageError(`--citations: expected one of ${CITATION_MODES.join(', ')}, got ${JSON.stringify(value)}`);
  return value as CitationMode;
}

export function registerQuery(program: Command, io: CliIO): void {
  program
    .command('query')
    .description('ask the memory: keyword and vector recall fused by rank, each answer with its citations, or "insufficient recall"')
    .argument('<text>', 'the question, or a pasted error (plain text: no query syntax)')
    .option('--project <name>', 'only this project (repeatable; default: every project)', (value: string, previous: string[]) => [...previous, value], [] as string[])
    .option('--levels <list>', 'levels to recall, comma-separated: L1,L2 (default), L0, R (reference docs only when asked)')
    .option('--limit <n>', 'at most n results (default 10, at most 100)')
    .option('--citations <mode>', `how much of each citation's text: ${CITATION_MODES.join('|')} (default ${DEFAULT_CITATIONS}: its first ${CITATION_EXCERPT_CHARS} characters)`)
    .option('--json', 'print {results, abstained, reason?, recall} as JSON')
    .action(async (text: string, options: { project: string[]; levels?: string; limit?: string; citations?: string; json?: boolean }, command: Command) => {
      const globals = command.optsWithGlobals<GlobalOptions>();
      const projects = options.project.map((p) => projectFlag(p));
      const levels = levelsFlag(options.levels);
      const limit = positiveIntFlag(options.limit, '--limit');
      const citations = citationsFlag(options.citations);
      if (limit !== undefined && limit > 100) throw new UsageError(`--limit: expected at most 100, got ${limit}`);
      if (text.trim() === '') throw new UsageError('query text: expected a non-empty question');
      const engine = await openExistingEngine(io, globals, projects);
      await engine.catchUp();
      const open = await openQueryDeps(engine, io.env);
      if (open.vectorNote) io.stderr.write(`mem: note: ${open.vectorNote}\n`);
      try {
        const result = await queryMemory({ text, citations, ...(projects.length > 0 ? { projects } : {}), ...(levels ? { levels } : {}), ...(limit !== undefined ? { limit } : {}) }, open.deps);
        for (const error of result.recall.errors) io.stderr.write(`mem: warning: ${error.leg} recall failed, answering without it: ${error.message} [${error.code}]\n`);
        if (options.json) writeJson(io.stdout, result);
        else printResult(io, result);
      } finally {
        await open.close();
      }
    });
}

function printResult(io: CliIO, result: QueryResult): void {
  const scope = `${result.recall.projects.length > 0 ? result.recall.projects.join(', ') : '(no projects)'} at ${result.recall.levels.join(', ')}`;
  if (result.abstained) {
    writeLine(io.stdout, `${result.reason}: nothing in ${scope} clears the relevance floor`);
    return;
  }
  const vector = result.recall.vector === 'used' ? '' : ` (vector recall ${result.recall.vector}: keyword only)`;
  writeLine(io.stdout, `${result.results.length} result${result.results.length === 1 ? '' : 's'} in ${scope}${vector}`);
  result.results.forEach((hit, i) => printHit(io, hit, i + 1));
}

function printHit(io: CliIO, hit: QueryHit, position: number): void {
  writeLine(io.stdout, '');
  writeLine(io.stdout, `${position}. [${hit.level} ${hit.tier}] ${hit.project}${hit.source ? `  ${hit.source}` : ''}  ${hit.sha256.slice(0, 12)}  score ${hit.score.toFixed(4)}  (${signals(hit)})`);
  for (const line of hit.text.split('\n')) writeLine(io.stdout, `   ${line}`);
  for (const parent of hit.parents) {
    const where = [parent.source, parent.t !== null ? `t${parent.t}` : null].filter((x) => x !== null).join(' ');
    writeLine(io.stdout, `   cites ${parent.level}${where ? ` ${where}` : ''}: ${oneLine(parent.text, 160)}`);
  }
}

function signals(hit: QueryHit): string {
  const r = hit.ranking;
  const parts: string[] = [];
  if (r.keyword) parts.push(`keyword #${r.keyword.rank}`);
  if (r.vector_text) parts.push(`text #${r.vector_text.rank}`);
  if (r.vector_symptom) parts.push(`symptom #${r.vector_symptom.rank}`);
  if (r.rerank) parts.push(`rerank #${r.rerank.rank}`);
  if (r.floor_passed_by.length === 0) parts.push('below floor');
  return parts.join(', ');
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
