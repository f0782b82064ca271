import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { contentSha256, splitMemoryLines, uniformLines } from '@mem/core';
import type { ForgetObservations, ReaddObservation } from '@mem/eval';
import { leakSearch } from './leak-search.js';
import { ScratchMem, errorCode } from './scratch-mem.js';
import { vectorSearch } from './vector-search.js';

const PROJECT = 'demo';
const QUESTION = 'Which tests failed and how were they fixed?';
const SYNTHESIS = 'What is the state of the project?';
/** The correction tool every surface shares (registry ops/corrections.ts). */
const MCP_TOOL = 'correct_memory';

interface MemoryEvent {
  type: string;
  run_id: string;
  level: string;
  t: number;
  text: string;
  parents: string[];
}

/** A mechanical rewording: the same content terms in reverse order, behind a lead-in. */
export function reword(line: string): string {
  return `As noted: ${line.split(/\s+/).reverse().join(' ')}`;
}

function writeQueries(mem: ScratchMem, ids: string[]): void {
  // The transcripts sit beside the data root, not in it: purge answers for the data root only.
  const queries = ids.map((id) => `  - id: ${id}\n    question: ${QUESTION}\n`).join('');
  writeFileSync(
    join(mem.root, 'queries', `${PROJECT}.yaml`),
    `project: ${PROJECT}\nsources:\n  - claude:../../transcripts\nqueries:\n${queries}synthesis:\n  question: ${SYNTHESIS}\n`,
  );
}

const memories = (mem: ScratchMem, level: string) =>
  mem
    .events(PROJECT)
    .filter((e) => e['type'] === 'memory' && e['level'] === level) as unknown as MemoryEvent[];

function liveInQuery(mem: ScratchMem, line: string): boolean {
  const out = mem.run(['query', line, '--project', PROJECT, '--json']);
  if (out.code !== 0) return false;
  const results = (JSON.parse(out.stdout) as { results: { sha256: string }[] }).results;
  return results.some((r) => r.sha256 === contentSha256(line));
}

/** `mem log append` of one L1 memory holding `line`, on the evidence the fact rested on. */
function appendLine(mem: ScratchMem, like: MemoryEvent, line: string, t: number): ReaddObservation {
  const text = `- ${line}`;
  const payload = {
    type: 'memory',
    run_id: like.run_id,
    level: 'L1',
    t,
    text,
    tokens: 20,
    parents: like.parents,
    sha256: contentSha256(text),
    lines: uniformLines(text, like.parents),
  };
  const before = mem.logText(PROJECT);
  const out = mem.run(
    ['log', 'append', '--project', PROJECT, '--json'],
    `${JSON.stringify(payload)}\n`,
  );
  return {
    code: out.code === 0 ? null : errorCode(out.stderr),
    log_grew: mem.logText(PROJECT) !== before,
  };
}

/** The shape every remote surface re-adds a text by: supersede another live line by it. */
function supersedeBody(ref: string, line: string) {
  return { project: PROJECT, ref, by: line, reason: 'eval forget: re-add attempt' };
}

async function overHttp(
  mem: ScratchMem,
  token: string,
  ref: string,
  line: string,
): Promise<ReaddObservation> {
  const before = mem.logText(PROJECT);
  const server = await mem.serve();
  try {
    const response = await fetch(`${server.url}/memory/supersede`, {
      method: 'POST',
      headers: {
        apikey: token,
        'content-type': 'application/json',
        'idempotency-key': randomUUID(),
      },
      body: JSON.stringify(supersedeBody(ref, line)),
    });
    const code = response.ok ? null : errorCode(await response.text());
    return { code, log_grew: mem.logText(PROJECT) !== before };
  } finally {
    await server.stop();
  }
}

async function overMcp(
  mem: ScratchMem,
  token: string,
  ref: string,
  line: string,
): Promise<ReaddObservation> {
  const before = mem.logText(PROJECT);
  const answer = (await mem.mcpCall(token, MCP_TOOL, {
    action: 'supersede',
    ...supersedeBody(ref, line),
  })) as {
    result?: { isError?: boolean; content?: { text: string }[] };
  };
  const refused = answer.result?.isError === true;
  const code = refused ? errorCode(answer.result?.content?.[0]?.text ?? '') : null;
  return { code, log_grew: mem.logText(PROJECT) !== before };
}

function identity(mem: ScratchMem): string {
  mem.must(['principal', 'add', 'eval']);
  mem.must(['project', 'add', PROJECT]);
  mem.must(['project', 'add-member', PROJECT, 'eval']);
  const minted = mem.must([
    'token',
    'mint',
    '--principal',
    'eval',
    '--projects',
    PROJECT,
    '--label',
    'eval-forget',
    '--json',
  ]);
  return (JSON.parse(minted) as { secret: string }).secret;
}

/**
 * Seed 003's attacks, in the order a user meets them: capture a fact by ingesting `transcript`,
 * forget it, then try to bring it back on every surface and look for any copy left behind.
 * `scratch` is an empty directory; the data root is `scratch/root`.
 */
export async function gatherForget(
  scratch: string,
  transcript: string,
  env: Record<string, string | undefined>,
): Promise<ForgetObservations> {
  const root = join(scratch, 'root');
  mkdirSync(join(root, 'queries'), { recursive: true });
  mkdirSync(join(scratch, 'transcripts'));
  copyFileSync(transcript, join(scratch, 'transcripts', basename(transcript)));
  const mem = new ScratchMem(root, env);
  const token = identity(mem);
  writeQueries(mem, ['tests']);
  mem.must(['ingest', '--project', PROJECT]);

  const source = memories(mem, 'L1').at(-1);
  const lines = source ? splitMemoryLines(source.text) : [];
  const fact = lines[0];
  const other = lines[1];
  if (!source || fact === undefined) return { fact: null, readds: {} };

  const liveBefore = liveInQuery(mem, fact);
  const forgot = mem.run([
    'forget',
    fact,
    '--project',
    PROJECT,
    '--reason',
    'eval forget',
    '--json',
  ]);
  const observations: ForgetObservations = {
    fact: {
      sha256: contentSha256(fact),
      live_before_forget: liveBefore,
      forgotten: forgot.code === 0,
    },
    readds: {
      cli: appendLine(mem, source, fact, source.t + 100),
      reword: appendLine(mem, source, reword(fact), source.t + 101),
    },
  };
  if (other !== undefined) {
    observations.readds.http = await overHttp(mem, token, contentSha256(other), fact);
    observations.readds.mcp = await overMcp(mem, token, contentSha256(other), fact);
  }

  writeQueries(mem, ['tests', 'tests-again']);
  const reingest = mem.run(['ingest', '--project', PROJECT]);
  const rerun = mem
    .events(PROJECT)
    .filter((e) => typeof e['run_id'] === 'string' && e['run_id'].startsWith('tests-again'));
  const runEnd = rerun.find((e) => e['type'] === 'run_end');
  observations.reingest = {
    ran: reingest.code === 0 && runEnd !== undefined,
    lines_forgotten:
      typeof runEnd?.['lines_forgotten'] === 'number' ? runEnd['lines_forgotten'] : 0,
    line_returned: rerun.some(
      (e) => e['type'] === 'memory' && splitMemoryLines(String(e['text'])).includes(fact),
    ),
  };

  const synthesized = mem.run(['synthesize', '--project', PROJECT]);
  const l2 =
    synthesized.code === 0 ? memories(mem, 'L2').flatMap((m) => splitMemoryLines(m.text)) : [];
  observations.synthesis = { l2_lines: l2.length, contains_fact: l2.includes(fact) };

  const rebuilt = mem.run(['rebuild', '--from-log']);
  observations.rebuild = { ran: rebuilt.code === 0, live_after: liveInQuery(mem, fact) };

  // The log keeps the original events until purge; the leak search is of projections and caches.
  observations.leak = leakSearch(root, fact, (file) => file.startsWith('log/'));
  observations.vectors = await vectorSearch(root, fact);
  const purged = mem.run(['purge', fact, '--project', PROJECT, '--reason', 'eval forget: purge']);
  observations.purge =
    purged.code === 0 ? leakSearch(root, fact, () => false) : { searched_files: [], holding: [] };
  return observations;
}
