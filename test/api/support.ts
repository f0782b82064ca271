import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contentSha256, type Payload, uniformLines } from '@mem/core';
import { Engine } from '@mem/engine';
import { projectorSqlite } from '@mem/projector-sqlite';
import { projectorVault } from '@mem/projector-vault';
import { openRegistry, type Caller, type Registry } from '@mem/registry';
import { startServer, type RunningServer, type ServeOptions } from '@mem/server';
import { testConfig } from '../support/test-config.js';

/** A temp data root with standing queries for `projects`; `cleanup()` removes it. */
export function tempDataRoot(projects: readonly string[] = []): {
  root: string;
  cleanup: () => void;
} {
  const root = mkdtempSync(join(tmpdir(), 'mem-api-'));
  mkdirSync(join(root, 'queries'), { recursive: true });
  for (const project of projects) writeStandingQueries(root, project);
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** queries/<project>.yaml with one standing query; its source is never read (jobs bring records). */
export function writeStandingQueries(root: string, project: string): void {
  writeFileSync(
    join(root, 'queries', `${project}.yaml`),
    `project: ${project}\nsources:\n  - claude:./nowhere\nqueries:\n  - id: bugs\n    question: What bugs or failures were found, and how were they fixed?\n`,
  );
}

export function engineAt(root: string): Engine {
  return new Engine({ root, projectors: [projectorSqlite, projectorVault] });
}

export async function registryAt(
  root: string,
  options: { runJobs?: boolean } = {},
): Promise<Registry> {
  return openRegistry({
    engine: engineAt(root),
    version: '0.0.0-test',
    config: testConfig(),
    runJobs: options.runJobs ?? true,
  });
}

export const ROOT_CALLER_NAME = 'local:test';

/** Runs an operation as the local root of trust. */
export function asRoot(registry: Registry, name: string, input: unknown): Promise<unknown> {
  return registry.invoke(name, registry.local(ROOT_CALLER_NAME), input);
}

/** Principals, registered projects and memberships in one go: `{alice: ['alpha'], bob: ['beta']}`. */
export async function seedIdentity(
  registry: Registry,
  members: Record<string, readonly string[]>,
): Promise<void> {
  const projects = new Set(Object.values(members).flat());
  for (const project of [...projects].sort())
    await asRoot(registry, 'project_add', { name: project });
  for (const [principal, list] of Object.entries(members)) {
    await asRoot(registry, 'principal_add', { name: principal });
    for (const project of list) await asRoot(registry, 'member_add', { project, principal });
  }
}

/** Mints a token as root and returns its plaintext and id. */
export async function mint(
  registry: Registry,
  input: Record<string, unknown>,
): Promise<{ id: string; secret: string; label: string }> {
  return (await asRoot(registry, 'token_mint', input)) as {
    id: string;
    secret: string;
    label: string;
  };
}

export async function callerFor(
  registry: Registry,
  secret: string,
  surface: 'http' | 'mcp' = 'http',
): Promise<Caller> {
  return registry.authenticate(secret, surface);
}

/**
 * One L1 memory resting on one L0 evidence, as the extractor would log them: a project with
 * content a query can find. Returns the shas, so tests can assert which ids may never appear.
 */
export function memoryPayloads(
  runId: string,
  evidenceText: string,
  memoryText: string,
  // One query's memories are one note: each new one replaces the last as what is in force.
  queryId = 'bugs',
): { payloads: Payload[]; evidence: string; memory: string } {
  const evidence = contentSha256(evidenceText);
  const memory = contentSha256(memoryText);
  return {
    evidence,
    memory,
    payloads: [
      {
        type: 'run',
        run_id: runId,
        level: 'L1',
        query_id: queryId,
        input_level: 'chunk',
        model: 'heuristic',
        chunk_tokens: 5000,
        memory_budget: 1024,
        exit_gate: false,
      },
      {
        type: 'chunk',
        run_id: runId,
        level: 'L0',
        t: 1,
        source: `claude:${runId}`,
        span: [0, 1],
        sha256: evidence,
      },
      {
        type: 'gate',
        run_id: runId,
        level: 'L1',
        t: 1,
        update: true,
        exit: false,
        think: 'evidence',
        latency_ms: 0,
      },
      {
        type: 'evidence',
        run_id: runId,
        level: 'L0',
        t: 1,
        source: `claude:${runId}`,
        text: evidenceText,
        sha256: evidence,
      },
      {
        type: 'memory',
        run_id: runId,
        level: 'L1',
        t: 1,
        text: memoryText,
        tokens: 12,
        parents: [evidence],
        sha256: memory,
        lines: uniformLines(memoryText, [evidence]),
      },
      {
        type: 'run_end',
        run_id: runId,
        level: 'L1',
        chunks_seen: 1,
        chunks_used: 1,
        final_memory_sha: memory,
      },
    ],
  };
}

/** Every request limit off: a spec's many calls from one address would otherwise be refused. */
const NO_RATE_LIMITS = { burstPerSecond: 0, ingestPerHour: 0, queryPerHour: 0 };

/** A loopback server on a free port with the rate limits off; `options` adds to (or overrides) that. */
export function serveUnlimited(
  registry: Registry,
  options: Partial<ServeOptions> = {},
): Promise<RunningServer> {
  return startServer(registry, { port: 0, rateLimits: NO_RATE_LIMITS, ...options });
}

/** One spec's HTTP fixture (servedRegistry); `close()` stops the server, closes the registry and removes the root. */
export interface Served {
  root: string;
  registry: Registry;
  server: RunningServer;
  close: () => Promise<void>;
}

/**
 * A temp data root with standing queries for `projects`, a registry on it (jobs not run),
 * `members` registered (seedIdentity), served on loopback with the rate limits off
 * (serveUnlimited, `options` added).
 */
export async function servedRegistry(
  projects: readonly string[],
  members: Record<string, readonly string[]>,
  options: Partial<ServeOptions> = {},
): Promise<Served> {
  const { root, cleanup } = tempDataRoot(projects);
  const registry = await registryAt(root, { runJobs: false });
  await seedIdentity(registry, members);
  const server = await serveUnlimited(registry, options);
  return {
    root,
    registry,
    server,
    close: async () => {
      await server.close();
      await registry.close();
      cleanup();
    },
  };
}

/** The seq of the project's last event (0 for an empty log), read from the log itself. */
export async function headSeq(registry: Registry, project: string): Promise<number> {
  let seq = 0;
  for await (const { event } of registry.context.engine.read(project)) seq = event.seq;
  return seq;
}

/** Polls until `check` returns a value (not undefined) or `timeoutMs` passes. */
export async function until<T>(
  check: () => Promise<T | undefined>,
  timeoutMs = 20_000,
  everyMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Sends a request to a test server; JSON bodies are stringified, `token` goes in `apikey`. */
export async function call(
  url: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; raw?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers['apikey'] = options.token;
  let body: string | undefined = options.raw;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${url}${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body } : {}),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text === '' ? null : JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body: parsed, headers: response.headers };
}
