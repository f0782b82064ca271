import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '@mem/cli';
import { createMcpServer } from '@mem/mcp';
import {
  localCaller,
  outputDrift,
  type AnyOperation,
  type AnyRemoteOperation,
  type Registry,
} from '@mem/registry';
import { startServer, type RunningServer } from '@mem/server';
import { contentSha256, reviewId, sha256Hex, type Capability } from '@mem/core';
import {
  asRoot,
  call,
  memoryPayloads,
  mint,
  registryAt,
  seedIdentity,
  tempDataRoot,
} from './support.js';

/*
 * Parity (seed 000 §6): every registry operation is reachable over HTTP and MCP, and over the
 * CLI where it declares a command, with the same authorization outcome and the same error
 * class; a local-only operation (it says why) is on the CLI alone. The walk is over the
 * registry itself: an operation added without a probe here fails.
 */

type Who = 'anonymous' | 'member' | 'admin';
type Surface = 'http' | 'mcp';

let root: string;
let cleanup: () => void;
let registry: Registry;
let server: RunningServer;
const clients = new Map<Who, Client>();
const tokens: Record<string, string> = {};
let jobId = '';
let revocable = '';
/** A task seeded in alpha: read by read_items, resolved (once, then as a no-op) by resolve_items. */
let seededTask = '';
/** A thread seeded beside it (the target of relate_items), and a fact delete_items deletes (then finds deleted: a no-op). */
let seededThread = '';
let seededDoomed = '';
/** A fact confirm_item confirms (each caller records its own next review date). */
let seededFact = '';

/** A valid input per operation, distinct per surface and caller where a write must not collide. */
const PROBES: Record<string, (surface: Surface | 'cli', who: Who) => Record<string, unknown>> = {
  health: () => ({}),
  version: () => ({}),
  query: () => ({ query: 'why did uploads fail' }),
  // The CLI takes the log as a file (or -): the same text, written where the command reads it.
  match_signature: (s) => {
    const log = '413 Request Entity Too Large\nupload failed after 1532ms';
    if (s !== 'cli') return { source: log };
    writeFileSync(join(root, 'probe.log'), log);
    return { source: join(root, 'probe.log') };
  },
  // A tool, a task and a failing log at once, so every leg runs; the CLI reads the log from a file.
  context: (s) => {
    const log = 'npm ERR! code ERESOLVE\nnpm ERR! ERESOLVE unable to resolve dependency tree';
    const asked = { tool: 'npm', task: 'why did uploads fail', budget: 2048 };
    if (s !== 'cli') return { ...asked, signature_source: log };
    writeFileSync(join(root, 'probe-context.log'), log);
    return { ...asked, signature_source: join(root, 'probe-context.log') };
  },
  ingest_submit: (s, who) => ({
    project: 'alpha',
    source: `agent:${s}-${who}`,
    records: [{ role: 'user', text: `hello from ${s} ${who}` }],
  }),
  ingest_status: () => ({ job_id: jobId }),
  project_list: () => ({}),
  project_status: () => ({ project: 'alpha' }),
  project_notes: () => ({ project: 'alpha' }),
  skill_list: () => ({}),
  skill_get: () => ({ name: 'kong-body' }),
  skill_draft: (s, who) => ({
    from: 'alpha/runbook',
    name: `parity-draft-${s}-${who}`,
    composer: 'heuristic',
  }),
  skill_promote: (s, who) => ({
    project: 'alpha',
    name: skillOf('promote', s, who, PROMOTERS),
    reason: `parity ${s} ${who}`,
  }),
  skill_retire: (s, who) => ({
    project: 'alpha',
    name: skillOf('retire', s, who, RETIRERS),
    reason: `parity ${s} ${who}`,
  }),
  projection_status: () => ({}),
  verify: () => ({ project: 'alpha' }),
  principal_add: (s, who) => ({ name: `p-${s}-${who}` }),
  principal_list: () => ({}),
  project_add: (s, who) => ({ name: `q-${s}-${who}` }),
  member_add: () => ({ project: 'alpha', principal: 'bob' }),
  member_remove: () => ({ project: 'beta', principal: 'carol' }),
  token_mint: () => ({ principal: 'bob' }),
  token_list: () => ({}),
  token_revoke: () => ({ id: revocable }),
  ingest_local: () => ({ project: 'alpha' }),
  synthesize_local: () => ({ project: 'alpha' }),
  vault_capture: () => ({ project: 'alpha', dry_run: true }),
  ref_add: () => ({ path: join(root, 'ref-docs'), project: 'alpha', name: 'parity-docs' }),
  ref_sync: () => ({ project: 'alpha' }),
  ref_list: () => ({ project: 'alpha' }),
  ref_rm: () => ({ name: 'parity-docs', project: 'alpha' }),
  forget: (s, who) => ({
    project: 'alpha',
    ref: FORGET_LINES[`${s}-${who}`] ?? FORGET_LINES['http-member']!,
    reason: `parity ${s} ${who}`,
  }),
  // A line of its own per surface and caller: a superseded line is no longer a target (CONFLICT).
  supersede: (s, who) => ({
    project: 'alpha',
    ref: SUPERSEDE_LINES[`${s}-${who}`] ?? SUPERSEDE_LINES['http-member']!,
    by: `Uploads now pass with a 16KB buffer, said ${s} ${who}.`,
    reason: 'raised',
  }),
  confirm: () => ({
    project: 'alpha',
    ref: 'Uploads failed because of the 8KB body buffer.',
    note: 'still true',
  }),
  history: () => ({ project: 'alpha', ref: 'Uploads failed because of the 8KB body buffer.' }),
  // The runbook's line: pinned once, then a no-op.
  pin_line: (s, who) => ({
    project: 'alpha',
    ref: 'Fixed the failed deploy by pinning the lockfile.',
    reason: `parity ${s} ${who}`,
  }),
  unpin_line: (s, who) => ({
    project: 'alpha',
    ref: 'Fixed the failed deploy by pinning the lockfile.',
    reason: `parity ${s} ${who}`,
  }),
  review_scan: () => ({ project: 'alpha' }),
  review_list: () => ({ project: 'alpha' }),
  review_keep: (s, who) => decideProbe('keep', s, who),
  review_dismiss: (s, who) => decideProbe('dismiss', s, who),
  review_supersede: (s, who) => decideProbe('supersede', s, who),
  remember: (s, who) => ({
    project: 'alpha',
    type: 'fact',
    text: `Remembered over ${s} by ${who}`,
  }),
  add_items: (s, who) => ({
    project: 'alpha',
    items: [{ type: 'task', summary: `Added over ${s} by ${who}`, tags: ['parity'] }],
  }),
  orient: () => ({ project: 'alpha', now: '2026-03-01T00:00:00Z' }),
  open: () => ({ id: seededThread }),
  read_items: () => ({ ids: [seededTask] }),
  find_items: () => ({ type: 'task', tag: 'parity' }),
  resolve_items: () => ({ project: 'alpha', ids: [seededTask], status: 'done' }),
  update_item: (s, who) => ({
    project: 'alpha',
    id: seededTask,
    summary: `Seeded, reworded over ${s} by ${who}`,
    reason: 'parity',
  }),
  confirm_item: (s, who) => ({
    project: 'alpha',
    id: seededFact,
    review_after: '2099-01-01T00:00:00Z',
    reason: `parity ${s} ${who}`,
  }),
  relate_items: () => ({
    project: 'alpha',
    item: seededTask,
    relation: 'link',
    target: seededThread,
  }),
  delete_items: () => ({ project: 'alpha', ids: [seededDoomed], reason: 'parity' }),
  set_attention: () => ({ project: 'alpha', id: seededThread, attention: 'reference' }),
  pin_item: () => ({ project: 'alpha', id: seededThread }),
  unpin_item: () => ({ project: 'alpha', id: seededThread }),
  add_log: (s, who) => ({
    project: 'alpha',
    id: seededThread,
    text: `Logged over ${s} by ${who}`,
    conversation: `parity-${s}`,
  }),
  purge: (s, who) => ({
    project: 'alpha',
    ref: PURGE_TEXTS[`${s}-${who}`] ?? PURGE_TEXTS['http-admin']!,
    reason: `parity ${s} ${who}`,
  }),
};

/** The callers that promote a draft (a member's token lacks may_write_rules), each its own: a draft is promoted once. */
const PROMOTERS = ['http-admin', 'mcp-admin', 'cli-admin'];
/** The callers that retire a promoted skill, each its own: a retired skill is no longer there to retire. */
const RETIRERS = ['http-member', 'mcp-member', 'http-admin', 'mcp-admin', 'cli-admin'];

/** The skill a caller's promote or retire probe names: seeded in beforeAll, one per such caller. */
function skillOf(verb: string, s: Surface | 'cli', who: Who, callers: readonly string[]): string {
  const key = callers.includes(`${s}-${who}`) ? `${s}-${who}` : callers[0]!;
  return `parity-${verb}-${key}`;
}

/** The grants each caller's token carries, beside its project reach. */
const GRANTS: Record<Who, readonly string[]> = {
  anonymous: [],
  member: [],
  admin: ['admin', 'may_write_rules'],
};

/** One planted personal string per caller that purges (a purged text is gone: a second purge is NOT_FOUND). */
const PURGE_TEXTS: Record<string, string> = {
  'http-admin': 'call-me-at 555-0101-http',
  'mcp-admin': 'call-me-at 555-0102-mcp',
  'cli-admin': 'call-me-at 555-0103-cli',
};

/** The callers that decide a finding: each needs its own, since a finding is decided once. */
const DECIDERS = ['http-member', 'mcp-member', 'http-admin', 'mcp-admin', 'cli-admin'];

/** Two live lines per decider that contradict (same subject, other port), for review supersede. */
const rivalLines = (key: string) => [
  `The ${key} gateway listens on port 8080.`,
  `The ${key} gateway listens on port 9090.`,
];

/** The finding a decider's probe decides: seeded open in beforeAll, one per decision and caller. */
function findingOf(decision: string, key: string): string[] {
  return decision === 'supersede'
    ? rivalLines(key).map(contentSha256).sort()
    : [sha256Hex(`${decision}:${key}:a`), sha256Hex(`${decision}:${key}:b`)].sort();
}

function decideProbe(decision: string, s: Surface | 'cli', who: Who) {
  const key = DECIDERS.includes(`${s}-${who}`) ? `${s}-${who}` : 'http-member';
  const kind = decision === 'supersede' ? 'contradiction' : 'duplicate';
  return {
    project: 'alpha',
    id: reviewId(kind, findingOf(decision, key)),
    reason: `parity ${s} ${who}`,
  };
}

/** One line per caller that forgets (a line is forgotten once; a second time is CONFLICT), sharing no content word. */
const FORGET_LINES: Record<string, string> = {
  'http-member': 'Amber lighthouses guard northern harbors.',
  'mcp-member': 'Cobalt turbines power eastern mills.',
  'http-admin': 'Crimson kites circle western dunes.',
  'mcp-admin': 'Silver trains cross southern bridges.',
  'cli-admin': 'Violet orchids bloom inside greenhouses.',
};

/** The line each surface and caller supersedes: a superseded line refuses a second supersede. */
const SUPERSEDE_LINES: Record<string, string> = {
  'http-member': 'Teal gliders ride coastal winds.',
  'mcp-member': 'Ochre barges drift down quiet canals.',
  'http-admin': 'Jade lanterns light mountain passes.',
  'mcp-admin': 'Umber owls nest in abandoned towers.',
  'cli-admin': 'Indigo ferries cross the bay at dawn.',
};

function httpRequest(
  op: AnyRemoteOperation,
  input: Record<string, unknown>,
): { path: string; body?: unknown } {
  const rest = { ...input };
  const path = op.http.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = String(rest[name]);
    delete rest[name];
    return encodeURIComponent(value);
  });
  if (op.http.method === 'POST') return { path, body: rest };
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(rest))
    query.set(key, Array.isArray(value) ? value.join(',') : String(value));
  const qs = query.toString();
  return { path: qs ? `${path}?${qs}` : path };
}

/** One surface's answer: `ok` and the output, or the error's code and its details (the message may name a CLI flag instead of the field). */
interface Answer {
  outcome: string;
  body: unknown;
}

async function answerHttp(
  op: AnyRemoteOperation,
  who: Who,
  input: Record<string, unknown>,
): Promise<Answer> {
  const request = httpRequest(op, input);
  const answer = await call(server.url, op.http.method, request.path, {
    ...(who !== 'anonymous' ? { token: tokens[who]! } : {}),
    ...(request.body !== undefined ? { body: request.body } : {}),
  });
  // The answer is what the declared output schema says, no more: the OpenAPI document cannot drift.
  if (answer.status < 300 && answer.status !== 204)
    expect(outputDrift(op, answer.body), `${op.name} over HTTP`).toBeNull();
  return answer.status < 300
    ? { outcome: 'ok', body: answer.body }
    : { outcome: answer.body.error.code, body: answer.body.error.details };
}

async function overHttp(
  op: AnyRemoteOperation,
  who: Who,
  input: Record<string, unknown>,
): Promise<string> {
  return (await answerHttp(op, who, input)).outcome;
}

async function answerMcp(
  op: AnyRemoteOperation,
  who: Who,
  input: Record<string, unknown>,
): Promise<Answer> {
  const args = {
    ...input,
    ...(op.mcp.select ? { [op.mcp.select.field]: op.mcp.select.value } : {}),
  };
  const result = (await clients.get(who)!.callTool({ name: op.mcp.tool, arguments: args })) as {
    isError?: boolean;
    content: { text: string }[];
  };
  const body = JSON.parse(result.content[0]!.text);
  if (!result.isError) expect(outputDrift(op, body), `${op.name} over MCP`).toBeNull();
  return result.isError
    ? { outcome: body.error.code, body: body.error.details }
    : { outcome: 'ok', body };
}

async function overMcp(
  op: AnyRemoteOperation,
  who: Who,
  input: Record<string, unknown>,
): Promise<string> {
  return (await answerMcp(op, who, input)).outcome;
}

async function overCli(
  op: AnyOperation,
  input: Record<string, unknown>,
): Promise<{ code: number; outcome: string; stdout: string; details?: unknown }> {
  const cli = op.cli!;
  const argv = [
    '--root',
    root,
    ...cli.command,
    ...(cli.args ?? []).flatMap((field) => {
      const value = input[field];
      return Array.isArray(value) ? value.map(String) : [String(value)];
    }),
  ];
  for (const option of cli.options ?? []) {
    const value = input[option.field];
    if (value === true && option.parse === 'boolean') argv.push(option.flag);
    else if (option.parse === 'jsonl-file' && Array.isArray(value)) {
      const file = join(root, `${op.name}-input.jsonl`);
      writeFileSync(file, value.map((line) => JSON.stringify(line)).join('\n') + '\n');
      argv.push(option.flag.split(' ')[0]!, file);
    } else if (value !== undefined)
      // eslint-disable-next-line @typescript-eslint/no-base-to-string -- an op input field is a string, number or boolean
      argv.push(option.flag.split(' ')[0]!, Array.isArray(value) ? value.join(',') : String(value));
  }
  argv.push('--json');
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d) => (out += d));
  stderr.on('data', (d) => (err += d));
  const code = await main(['node', 'mem', ...argv], {
    stdin: new PassThrough(),
    stdout,
    stderr,
    env: {},
    cwd: root,
  });
  if (code === 0 && !cli.json)
    expect(outputDrift(op, JSON.parse(out)), `${op.name} over the CLI`).toBeNull();
  if (code === 0) return { code, outcome: 'ok', stdout: out };
  const { error } = JSON.parse(err.trim().split('\n').at(-1)!);
  return { code, outcome: error.code as string, stdout: out, details: error.details };
}

/** The events of `project`'s log, as the engine reads them. */
async function eventsOf(project: string): Promise<unknown[]> {
  const events: unknown[] = [];
  for await (const event of registry.context.engine.read(project)) events.push(event);
  return events;
}

/** The error code a local-only operation refuses `input` with, for the local root of trust. */
async function refusedAsRoot(op: AnyOperation, input: Record<string, unknown>): Promise<string> {
  try {
    await registry.invoke(op.name, localCaller('local:test'), input);
    return 'ok';
  } catch (error) {
    return (error as { code: string }).code;
  }
}

beforeAll(async () => {
  ({ root, cleanup } = tempDataRoot(['alpha', 'beta']));
  // alpha's standing queries as a local ingest and synthesis read them: a source directory (empty) and a synthesis question.
  mkdirSync(join(root, 'queries', 'nowhere'));
  writeFileSync(
    join(root, 'queries', 'alpha.yaml'),
    'project: alpha\nsources:\n  - claude:./nowhere\nqueries:\n  - id: bugs\n    question: What bugs or failures were found?\nsynthesis:\n  question: What matters most?\n',
  );
  // A documentation tree for `mem ref add` to read.
  mkdirSync(join(root, 'ref-docs'));
  writeFileSync(join(root, 'ref-docs', 'README.md'), '# Parity\n\nA passage to read.\n');
  registry = await registryAt(root, { runJobs: false });
  await seedIdentity(registry, { alice: ['alpha'], bob: ['beta'], carol: ['alpha', 'beta'] });
  tokens['member'] = (await mint(registry, { principal: 'alice' })).secret;
  tokens['admin'] = (
    await mint(registry, { principal: 'carol', capabilities: [...GRANTS.admin] as Capability[] })
  ).secret;
  revocable = (await mint(registry, { principal: 'bob', label: 'to-revoke' })).id;
  await registry.context.engine.append(
    'alpha',
    memoryPayloads(
      'run-a',
      'Uploads failed: 8KB body buffer.',
      'Uploads failed because of the 8KB body buffer.',
    ).payloads,
    { kind: 'test' },
  );
  // Skills are drawn from a note of their own: the forget probes empty `bugs` (its newest memory
  // is the last line they forget), and a draft needs a live line.
  await registry.context.engine.append(
    'alpha',
    memoryPayloads(
      'run-runbook',
      'Deploy failed: the lockfile drifted; pinned it and the deploy passed.',
      'Fixed the failed deploy by pinning the lockfile.',
      'runbook',
    ).payloads,
    { kind: 'test' },
  );
  for (const [i, text] of Object.values(PURGE_TEXTS).entries()) {
    await registry.context.engine.append(
      'alpha',
      memoryPayloads(
        `run-purge-${i}`,
        `A user pasted ${text} into session ${i}.`,
        `Session ${i} held a phone number.`,
      ).payloads,
      { kind: 'test' },
    );
  }
  for (const [i, line] of Object.values(FORGET_LINES).entries()) {
    await registry.context.engine.append(
      'alpha',
      memoryPayloads(`run-forget-${i}`, `Seen in session ${i}: ${line}`, line).payloads,
      { kind: 'test' },
    );
  }
  for (const [i, line] of Object.values(SUPERSEDE_LINES).entries()) {
    await registry.context.engine.append(
      'alpha',
      memoryPayloads(`run-supersede-${i}`, `Noted in session ${i}: ${line}`, line, `supersede-${i}`)
        .payloads,
      { kind: 'test' },
    );
  }
  for (const [i, key] of DECIDERS.entries()) {
    await registry.context.engine.append(
      'alpha',
      memoryPayloads(
        `run-review-${i}`,
        `Gateway ports seen in session ${i}.`,
        rivalLines(key).join('\n'),
        // A note of its own per decider: the review queue reads each note's newest memory.
        `review-${i}`,
      ).payloads,
      { kind: 'test' },
    );
    for (const decision of ['keep', 'dismiss', 'supersede']) {
      const kind = decision === 'supersede' ? 'contradiction' : 'duplicate';
      const subjects = findingOf(decision, key);
      await registry.context.engine.append(
        'alpha',
        [
          {
            type: 'review_opened',
            id: reviewId(kind, subjects),
            kind,
            subjects,
            explanation: 'seeded',
          },
        ],
        { kind: 'test' },
      );
    }
  }
  [seededTask, seededThread, seededDoomed, seededFact] = (
    (await asRoot(registry, 'add_items', {
      project: 'alpha',
      items: [
        { type: 'task', summary: 'Seeded for parity' },
        { type: 'thread', summary: 'Seeded thread' },
        { type: 'fact', summary: 'Seeded to be deleted' },
        { type: 'fact', summary: 'Seeded to be confirmed', review_after: '2026-01-01T00:00:00Z' },
      ],
    })) as { ids: string[] }
  ).ids as [string, string, string, string];
  jobId = (
    (await asRoot(registry, 'ingest_submit', {
      project: 'alpha',
      source: 'agent:seed',
      records: [{ role: 'user', text: 'seed' }],
    })) as { job_id: string }
  ).job_id;
  // A draft per promoter, a promoted skill per retirer, all drawn from alpha's `runbook` note.
  for (const [verb, callers] of [
    ['promote', PROMOTERS],
    ['retire', RETIRERS],
  ] as const) {
    for (const key of callers) {
      const name = `parity-${verb}-${key}`;
      await asRoot(registry, 'skill_draft', { from: 'alpha/runbook', name, composer: 'heuristic' });
      if (verb === 'retire')
        await asRoot(registry, 'skill_promote', { project: 'alpha', name, reason: 'seeded' });
    }
  }
  mkdirSync(join(root, 'vault', 'skills', 'kong-body'), { recursive: true });
  writeFileSync(
    join(root, 'vault', 'skills', 'kong-body', 'SKILL.md'),
    '---\nname: kong-body\ndescription: body buffer sizes\n---\nRaise it.\n',
  );
  server = await startServer(registry, {
    port: 0,
    rateLimits: { burstPerSecond: 0, ingestPerHour: 0, queryPerHour: 0 },
  });
  for (const who of ['anonymous', 'member', 'admin'] as const) {
    const mcp = createMcpServer(registry, { credential: () => tokens[who] });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await mcp.connect(b);
    const client = new Client({ name: `parity-${who}`, version: '1' });
    await client.connect(a);
    clients.set(who, client);
  }
});

afterAll(async () => {
  for (const client of clients.values()) await client.close();
  await server?.close();
  await registry?.close();
  cleanup?.();
});

describe('registry parity across HTTP, MCP and the CLI', () => {
  it('has a probe for every operation (a new operation must join this walk)', () => {
    expect(Object.keys(PROBES).sort()).toEqual(registry.operations.map((op) => op.name).sort());
  });

  it('every operation answers each caller the same on HTTP and MCP', async () => {
    const table: string[] = [];
    for (const op of registry.remote) {
      for (const who of ['anonymous', 'member', 'admin'] as const) {
        const http = await overHttp(op, who, PROBES[op.name]!('http', who));
        const mcp = await overMcp(op, who, PROBES[op.name]!('mcp', who));
        table.push(`${op.name} ${who}: http ${http}, mcp ${mcp}`);
        expect(mcp, `${op.name} as ${who}`).toBe(http);
        // The expected class, from the declaration alone.
        const expected =
          op.auth.access === 'open'
            ? 'ok'
            : who === 'anonymous'
              ? 'UNAUTHENTICATED'
              : (op.auth.access === 'admin' && !GRANTS[who].includes('admin')) ||
                  (op.auth.capability !== undefined && !GRANTS[who].includes(op.auth.capability))
                ? 'CAPABILITY_REQUIRED'
                : 'ok';
        expect(http, `${op.name} as ${who}`).toBe(expected);
      }
    }
    expect(table.length).toBe(registry.remote.length * 3);
  });

  it('a project outside the token is FORBIDDEN on both surfaces, wherever an operation names one', async () => {
    // An admin-only operation (purge) refuses a member for the capability first: the walk above
    // holds it to CAPABILITY_REQUIRED.
    for (const op of registry.remote.filter(
      (o) => o.auth.project !== undefined && o.auth.access !== 'admin',
    )) {
      const input = {
        ...PROBES[op.name]!('http', 'member'),
        [op.auth.project!]:
          op.name === 'query' || op.name === 'match_signature' ? ['beta'] : 'beta',
      };
      expect(await overHttp(op, 'member', input), op.name).toBe('FORBIDDEN');
      expect(await overMcp(op, 'member', input), op.name).toBe('FORBIDDEN');
    }
  });

  it('an unknown field is INVALID_INPUT on both surfaces, for every operation', async () => {
    for (const op of registry.remote) {
      const who = op.auth.access === 'admin' ? 'admin' : 'member';
      const input = { ...PROBES[op.name]!('http', who), bogus_field: 1 };
      expect(await overHttp(op, who, input), op.name).toBe('INVALID_INPUT');
      expect(await overMcp(op, who, input), op.name).toBe('INVALID_INPUT');
    }
  });

  it('every operation with a CLI command runs there as the local root, with the same errors', async () => {
    const withCli = registry.operations.filter((op) => op.cli);
    expect(withCli.map((op) => op.cli!.command.join(' '))).toEqual(
      expect.arrayContaining([
        'forget',
        'supersede',
        'confirm',
        'history',
        'review scan',
        'review list',
        'review keep',
        'review dismiss',
        'review supersede',
        'query',
        'verify',
        'ingest',
        'synthesize',
        'principal add',
        'project add',
        'project add-member',
        'project remove-member',
        'token mint',
        'token list',
        'token revoke',
        'vault capture',
      ]),
    );
    for (const op of withCli) {
      const ok = await overCli(op, PROBES[op.name]!('cli', 'admin'));
      expect(ok.outcome, `${op.cli!.command.join(' ')}: ${ok.stdout}`).toBe('ok');
      JSON.parse(ok.stdout);
      // The query's text, a log, a memory or item text, a correction's ref and a corpus path take any words: their first flag (--project) is the field to spoil.
      const anyText =
        op.name === 'query' ||
        op.name === 'match_signature' ||
        op.cli!.args?.[0] === 'ref' ||
        op.cli!.args?.[0] === 'path' ||
        op.cli!.args?.[0] === 'text';
      const field = anyText
        ? op.cli!.options?.[0]?.field
        : (op.cli!.args?.[0] ?? op.cli!.options?.[0]?.field);
      if (field === undefined) continue;
      const bad = { ...PROBES[op.name]!('cli', 'admin'), [field]: 'Not Valid!' };
      const refused = await overCli(op, bad);
      expect(refused.code, op.name).toBe(2);
      // A local-only operation has no route: the registry's own answer to the local root is the reference.
      expect(refused.outcome, op.name).toBe(
        op.local ? await refusedAsRoot(op, bad) : await overHttp(op, 'admin', bad),
      );
    }
    // Each command opens the data root as a CLI run does (a local ingest and synthesis catch PGlite up, a corpus add and sync too; eight item commands, three skill commands): minutes on a loaded machine.
  }, 600_000);

  it('query takes as_of and include_superseded alike on HTTP, MCP and the CLI, with the same refusals', async () => {
    const op = registry.operation('query') as AnyRemoteOperation;
    const head = (await registry.context.engine.head('alpha')).seq;
    const asked = { query: 'uploads buffer', project: ['alpha'] };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...asked, as_of: String(head), include_superseded: true }, 'ok'],
      [{ ...asked, as_of: '2026-01-01T00:00:00Z' }, 'ok'],
      [{ ...asked, as_of: 'yesterday' }, 'INVALID_INPUT'],
      [{ ...asked, as_of: String(head + 1000) }, 'INVALID_INPUT'],
    ];
    for (const [input, expected] of cases) {
      expect(await overHttp(op, 'admin', input), JSON.stringify(input)).toBe(expected);
      expect(await overMcp(op, 'admin', input), JSON.stringify(input)).toBe(expected);
      expect((await overCli(op, input)).outcome, JSON.stringify(input)).toBe(expected);
    }
  });

  // MCP refused `project: "alpha"` (expected array) while HTTP's `project=alpha,beta` was a list:
  // one rule now, the schema's (listInput): a JSON list, or one string of comma-separated names.
  it('a list field takes one name, a comma-separated string or a list, alike on HTTP, MCP and the CLI', async () => {
    const op = registry.operation('query') as AnyRemoteOperation;
    const asked = { query: 'uploads buffer' };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...asked, project: 'alpha' }, 'ok'],
      // alpha twice: the one project the admin reaches whatever the walk before removed (beta).
      [{ ...asked, project: 'alpha, alpha' }, 'ok'],
      [{ ...asked, project: ['alpha', 'alpha'] }, 'ok'],
      [{ ...asked, project: 'alpha', level: 'L1,L2' }, 'ok'],
      [{ ...asked, project: 'alpha,Not A Name' }, 'INVALID_INPUT'],
      [{ ...asked, project: 'alpha', level: 'L1,L9' }, 'INVALID_INPUT'],
    ];
    for (const [input, expected] of cases) {
      expect(await overHttp(op, 'admin', input), JSON.stringify(input)).toBe(expected);
      expect(await overMcp(op, 'admin', input), JSON.stringify(input)).toBe(expected);
      expect((await overCli(op, input)).outcome, JSON.stringify(input)).toBe(expected);
    }
    // And the MCP tool list says so: a list field's schema admits an array and a string.
    const listed = (await clients.get('admin')!.listTools()).tools;
    const admits = (schema: Record<string, unknown>): unknown[] => [
      schema['type'],
      ...((schema['anyOf'] ?? []) as Record<string, unknown>[]).flatMap(admits),
    ];
    for (const [tool, field] of [
      ['query', 'project'],
      ['query', 'level'],
      ['items', 'projects'],
    ] as const) {
      const properties = listed.find((t) => t.name === tool)!.inputSchema.properties!;
      expect(admits(properties[field] as Record<string, unknown>), `${tool}.${field}`).toEqual(
        expect.arrayContaining(['array', 'string']),
      );
    }
  });

  it('an operation off HTTP and MCP is so on purpose: it says why, runs on the CLI, and no remote caller reaches it', async () => {
    const local = registry.operations.filter((op) => op.local);
    expect(local.map((op) => op.name).sort()).toEqual([
      'ingest_local',
      'ref_add',
      'ref_list',
      'ref_rm',
      'ref_sync',
      'synthesize_local',
      'vault_capture',
    ]);
    const doc = (await call(server.url, 'GET', '/openapi.json', { token: tokens['admin']! }))
      .body as { paths: Record<string, Record<string, { operationId: string }>> };
    const routed = Object.values(doc.paths).flatMap((methods) =>
      Object.values(methods).map((entry) => entry.operationId),
    );
    const tools = (await clients.get('admin')!.listTools()).tools.map((tool) => tool.name);
    for (const op of local) {
      expect(op.local!.why.length, op.name).toBeGreaterThan(0);
      expect(op.cli, op.name).toBeDefined();
      expect(routed, op.name).not.toContain(op.name);
      expect(tools, op.name).not.toContain(op.name);
      // Even named directly below every surface, a token's caller finds no such operation.
      const admin = await registry.authenticate(tokens['admin'], 'http');
      await expect(
        registry.invoke(op.name, admin, PROBES[op.name]!('http', 'admin')),
      ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    }
    // Every operation is on one side or the other: none is missing from HTTP and MCP unannounced.
    expect([...registry.remote, ...local].length).toBe(registry.operations.length);
  });

  it('the item flow answers alike on HTTP, MCP and the CLI: the same ids in the same order, the same refusals with the same details', async () => {
    const op = (name: string) => registry.operation(name) as AnyRemoteOperation;
    const head = async () => (await registry.context.engine.head('alpha')).seq;
    /** One write or read on one surface (the admin's token on HTTP and MCP, the local root on the CLI). */
    async function on(
      surface: Surface | 'cli',
      name: string,
      input: Record<string, unknown>,
    ): Promise<any> {
      if (surface === 'http') return answerHttp(op(name), 'admin', input);
      if (surface === 'mcp') return answerMcp(op(name), 'admin', input);
      const cli = await overCli(op(name), input);
      return {
        outcome: cli.outcome,
        body: cli.outcome === 'ok' ? JSON.parse(cli.stdout) : cli.details,
      };
    }
    /** The same read, or a refused write, on every surface: one answer, byte for byte. */
    async function alike(name: string, input: Record<string, unknown>): Promise<any> {
      const http = await on('http', name, input);
      expect(await on('mcp', name, input), `${name} over MCP`).toEqual(http);
      expect(await on('cli', name, input), `${name} over the CLI`).toEqual(http);
      return http;
    }
    const SURFACES = ['http', 'mcp', 'cli'] as const;

    // Each surface adds a thread, two tasks under it and a fact anchored to it as one batch.
    const trees: string[][] = [];
    for (const surface of SURFACES) {
      const added = await on(surface, 'add_items', {
        project: 'alpha',
        items: [
          { type: 'thread', summary: `Flow thread over ${surface}`, ref: 't' },
          { type: 'task', summary: `Port the flow loader (${surface})`, parent_ref: 't' },
          { type: 'task', summary: `Drop the flow shim (${surface})`, parent_ref: 't' },
          {
            type: 'fact',
            summary: `The flow loader caches themes (${surface})`,
            anchor_refs: ['t'],
          },
        ],
      });
      expect(added.outcome, surface).toBe('ok');
      expect(added.body.ids).toHaveLength(4);
      trees.push(added.body.ids);
    }
    const [viaHttp, viaMcp, viaCli] = trees as [string[], string[], string[]];
    const rule = (
      await on('http', 'remember', { project: 'alpha', type: 'rule', text: 'Flow rule' })
    ).body.ids[0];
    let seq = await head();

    // Refused writes: the same code and details everywhere, and nothing written.
    const bad = await alike('add_items', {
      project: 'alpha',
      items: [
        { type: 'task', summary: 'Fine on its own' },
        { type: 'task', summary: 'Expires?', valid_until: '2027-01-01T00:00:00Z' },
      ],
    });
    expect(bad).toMatchObject({
      outcome: 'INVALID_INPUT',
      body: { field: 'items[1].valid_until' },
    });
    // A field that does not apply: one details shape on add_items, remember and update_item.
    const inapplicable = (field: string, type: string, appliesTo: string[]) => ({
      outcome: 'INVALID_INPUT',
      body: {
        field,
        expected: `absent on a ${type}`,
        type,
        applies_to: appliesTo,
        issues: [
          {
            field,
            expected: `absent on a ${type}`,
            problem: `${field.replace(/^items\[\d+\]\./, '')} does not apply to a ${type}: it applies to ${appliesTo.join(', ')} only`,
          },
        ],
      },
    });
    expect(bad).toEqual(inapplicable('items[1].valid_until', 'task', ['rule', 'fact']));
    expect(
      await alike('remember', {
        project: 'alpha',
        type: 'rule',
        text: 'Flow rule with a due date',
        due: '2027-01-01T00:00:00Z',
      }),
    ).toEqual(inapplicable('due', 'rule', ['task']));
    expect(
      await alike('update_item', {
        project: 'alpha',
        id: viaHttp[1],
        valid_until: '2027-01-01T00:00:00Z',
        reason: 'expires?',
      }),
    ).toEqual(inapplicable('valid_until', 'task', ['rule', 'fact']));
    const full = await alike('add_items', {
      project: 'alpha',
      items: Array.from({ length: 9 }, (_, i) => ({
        type: 'rule',
        summary: `Flow rule ${i}: ${'check the bundle before a release; '.repeat(13)}`,
      })),
    });
    expect(full).toMatchObject({
      outcome: 'BUDGET_EXCEEDED',
      body: { section: 'rules', cap: expect.any(Number), count: expect.any(Number) },
    });
    expect(full.body.candidates.map((c: { id: string }) => c.id)).toContain(rule);
    const open = await alike('resolve_items', {
      project: 'alpha',
      ids: [viaHttp[0]],
      status: 'done',
    });
    expect(open.outcome).toBe('CONFLICT');
    expect(open.body.open_descendants.map((d: { id: string }) => d.id).sort()).toEqual(
      [viaHttp[1], viaHttp[2]].sort(),
    );
    const cycle = await alike('relate_items', {
      project: 'alpha',
      item: viaMcp[0],
      relation: 'parent',
      target: viaMcp[1],
    });
    expect(cycle.outcome).toBe('CONFLICT');
    expect(await head()).toBe(seq);

    // Reads: orientation, the opened thread, finds by filter and by keyword, reads by id.
    const now = '2026-03-01T00:00:00Z';
    const t0 = await alike('orient', { project: 'alpha', now });
    expect(t0.body.rules.items.map((r: { id: string }) => r.id)).toContain(rule);
    expect(t0.body.threads.items.slice(0, 3).map((t: { id: string }) => t.id)).toEqual([
      viaCli[0],
      viaMcp[0],
      viaHttp[0],
    ]);
    // The clock is before every thread was written: each is listed, marked as opened after it
    // (not "open · 0 days unresolved"), byte for byte alike on the three surfaces.
    for (const thread of t0.body.threads.items)
      expect(thread.open_marker).toMatch(
        /^not open yet at this clock \(opened \d{4}-\d\d-\d\dT[\d:.]+Z\)$/,
      );
    const t1 = await alike('open', { id: viaMcp[0] });
    expect(t1.body.children.items.map((c: { id: string }) => c.id).sort()).toEqual(
      [viaMcp[1], viaMcp[2]].sort(),
    );
    expect(t1.body.facts.map((f: { id: string }) => f.id)).toEqual([viaMcp[3]]);
    const children = await alike('find_items', { projects: ['alpha'], parent: viaCli[0] });
    expect(children.body.total).toBe(2);
    const keyword = await alike('find_items', {
      projects: ['alpha'],
      query: 'loader',
      limit: 4,
      offset: 1,
    });
    expect(keyword.body).toMatchObject({ total: 6, truncated: true });
    expect(keyword.body.items).toHaveLength(4);
    const read = await alike('read_items', { ids: [viaCli[2], viaHttp[0]] });
    expect(read.body.items.map((i: { id: string }) => i.id)).toEqual([viaCli[2], viaHttp[0]]);

    // Writes on one surface, seen alike on all: a task resolved (again: nothing to write), a
    // thread resolved with a disposition for its open task, relations, a log per surface.
    expect(
      (await on('cli', 'resolve_items', { project: 'alpha', ids: [viaHttp[1]], status: 'done' }))
        .outcome,
    ).toBe('ok');
    const again = await alike('resolve_items', {
      project: 'alpha',
      ids: [viaHttp[1]],
      status: 'done',
    });
    expect(again.body.ids).toEqual([]);
    const closed = await on('mcp', 'resolve_items', {
      project: 'alpha',
      ids: [viaHttp[0]],
      status: 'done',
      descendants: 'dropped',
    });
    expect(closed.body.ids).toEqual([viaHttp[2], viaHttp[0]]);
    await on('http', 'relate_items', {
      project: 'alpha',
      item: viaCli[0],
      relation: 'link',
      target: viaMcp[0],
    });
    await on('cli', 'relate_items', {
      project: 'alpha',
      item: viaCli[1],
      relation: 'blocked_by',
      target: viaCli[2],
    });
    // A task resolved done past its open blocker: written, and the answer names the blocker
    // alike on every surface (one task each, all blocked by viaCli[2], which is still open).
    const blocked = (
      await on('http', 'add_items', {
        project: 'alpha',
        items: SURFACES.map((surface) => ({ type: 'task', summary: `Ship past it (${surface})` })),
      })
    ).body.ids as string[];
    for (const id of blocked)
      await on('http', 'relate_items', {
        project: 'alpha',
        item: id,
        relation: 'blocked_by',
        target: viaCli[2],
      });
    const pastBlocker = await Promise.all(
      SURFACES.map(async (surface, i) => {
        const out = await on(surface, 'resolve_items', {
          project: 'alpha',
          ids: [blocked[i]],
          status: 'done',
        });
        expect(out.body.ids).toEqual([blocked[i]]);
        return out.body.warnings.map((w: { item: string; message: string }) => ({
          ...w,
          item: w.item === blocked[i] ? 'the task' : w.item,
          message: w.message.replaceAll(blocked[i]!, 'the task'),
        }));
      }),
    );
    expect(pastBlocker[0]).toEqual([
      {
        code: 'OPEN_BLOCKER',
        item: 'the task',
        blocker: viaCli[2],
        blocker_status: 'open',
        message: expect.stringContaining(`is done while blocked by ${viaCli[2]} (task, open:`),
      },
    ]);
    expect(pastBlocker[1]).toEqual(pastBlocker[0]);
    expect(pastBlocker[2]).toEqual(pastBlocker[0]);
    for (const surface of SURFACES)
      expect(
        (
          await on(surface, 'add_log', {
            project: 'alpha',
            id: viaCli[0],
            text: `Seen over ${surface}`,
          })
        ).outcome,
      ).toBe('ok');
    const t1Cli = await alike('open', { id: viaCli[0] });
    expect(t1Cli.body.links).toEqual([{ id: viaMcp[0], summary: 'Flow thread over mcp' }]);
    const history = await alike('history', { project: 'alpha', ref: viaCli[0] });
    expect(
      history.body.entries
        .filter((e: { type: string }) => e.type === 'item_logged')
        .map((e: { text: string }) => e.text),
    ).toEqual(SURFACES.map((s) => `Seen over ${s}`));
    expect(
      (await alike('find_items', { projects: ['alpha'], status: 'done', query: 'flow' })).body
        .total,
    ).toBe(2);

    // Freshness: an expired fact is held back and named alike, and delivered when asked.
    const expired = (
      await on('cli', 'remember', {
        project: 'alpha',
        type: 'fact',
        text: 'The flow staging cluster runs Postgres 9.6',
        valid_until: '2020-01-01T00:00:00Z',
      })
    ).body.ids[0];
    seq = await head();
    const held = await alike('find_items', { projects: ['alpha'], query: 'staging postgres' });
    expect(held.body.items).toEqual([]);
    expect(held.body.freshness_warnings).toEqual([
      expect.objectContaining({ id: expired, state: 'expired', delivered: false }),
    ]);
    const delivered = await alike('find_items', {
      projects: ['alpha'],
      query: 'staging postgres',
      include_stale: true,
    });
    expect(delivered.body.items.map((i: { id: string }) => i.id)).toEqual([expired]);
    expect(
      (await alike('orient', { project: 'alpha', now })).body.freshness_warnings,
    ).toContainEqual(expect.objectContaining({ id: expired, delivered: true }));
    // The query names it alike on HTTP and MCP; the CLI answers from the root's own vector
    // projection too (this registry projects none), so there it is named among the others.
    const asked = { query: 'staging postgres', project: ['alpha'] };
    const [http, mcp, cli] = await Promise.all(
      SURFACES.map(async (surface) => (await on(surface, 'query', asked)).body),
    );
    expect(mcp).toEqual(http);
    expect(http.freshness_warnings).toEqual([
      expect.objectContaining({ id: expired, state: 'expired', delivered: false }),
    ]);
    expect(cli.freshness_warnings).toContainEqual(http.freshness_warnings[0]);
    expect(await head()).toBe(seq);
  }, 600_000);

  it('the local ingest dry run answers its declared shape over the CLI and writes nothing', async () => {
    const op = registry.operation('ingest_local');
    const before = await eventsOf('alpha');
    const dry = await overCli(op, { project: 'alpha', dry_run: true });
    expect(dry.outcome, dry.stdout).toBe('ok');
    expect(JSON.parse(dry.stdout)).toMatchObject({ project: 'alpha', chunks: 0 });
    expect(await eventsOf('alpha')).toEqual(before);
  });
});
