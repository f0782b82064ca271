import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Registry } from '@mem/registry';
import type { RunningServer } from '@mem/server';
import {
  ALL_PLANTED,
  PLANTED_SECRETS,
  claudeTranscriptWithSecrets,
} from '../support/planted-secrets.js';
import {
  call,
  mint,
  registryAt,
  seedIdentity,
  serveUnlimited,
  tempDataRoot,
  until,
} from './support.js';

/*
 * Item 3 of issue 9 over HTTP: a secret in `source` and `ingest_id` (identities), in posted
 * record text and in a transcript reaches no file under the data root, and the scrubbed
 * identity still identifies the job (a retry of a done job is 409, not a second job).
 */

const SOURCE_SECRET = 'ghp_SourceLabelToken0123456789abcdefghijk';
const INGEST_ID_SECRET = 'hf_IngestIdTokenAbCdEfGhIjKlMnOpQrStUvWx';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** Every file under `root` that holds one of `secrets`, with the secret found. */
function leaks(root: string, secrets: readonly string[]): string[] {
  return filesUnder(root).flatMap((file) => {
    const bytes = readFileSync(file).toString('latin1');
    return secrets.filter((s) => bytes.includes(s)).map((s) => `${file.slice(root.length)}: ${s}`);
  });
}

let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

async function serve(): Promise<{
  root: string;
  registry: Registry;
  server: RunningServer;
  token: string;
}> {
  const { root, cleanup } = tempDataRoot(['demo']);
  const registry = await registryAt(root);
  await seedIdentity(registry, { alice: ['demo'] });
  const token = (await mint(registry, { principal: 'alice', projects: ['demo'], label: 'laptop' }))
    .secret;
  const server = await serveUnlimited(registry);
  cleanups.push(
    cleanup,
    () => registry.close(),
    () => server.close(),
  );
  return { root, registry, server, token };
}

async function ingestUntilDone(
  url: string,
  token: string,
  body: unknown,
): Promise<{ job_id: string; ingest_id: string }> {
  const accepted = await call(url, 'POST', '/memory/ingest', { token, body });
  expect(accepted.status).toBe(202);
  await until(async () =>
    (await call(url, 'GET', accepted.body.status_url, { token })).body.status === 'done'
      ? true
      : undefined,
  );
  return accepted.body;
}

describe('POST /memory/ingest scrubs every string that enters an event', () => {
  it('records: secrets in source, ingest_id and text reach no file, and the scrubbed ingest_id is still the job', async () => {
    const { root, server, token } = await serve();
    const body = {
      project: 'demo',
      source: `agent:${SOURCE_SECRET}`,
      ingest_id: `retry-${INGEST_ID_SECRET}`,
      records: PLANTED_SECRETS.map((p) => ({
        role: 'assistant',
        text: `The deploy failed: the bug was ${p.snippet}`,
      })),
    };
    const job = await ingestUntilDone(server.url, token, body);
    expect(job.ingest_id).toBe('retry-[REDACTED:huggingface_token]');
    const again = await call(server.url, 'POST', '/memory/ingest', { token, body });
    expect(again.status).toBe(409);
    expect(JSON.stringify(again.body)).not.toContain(INGEST_ID_SECRET);
    const status = await call(server.url, 'GET', `/memory/ingest/${job.job_id}`, { token });
    expect(JSON.stringify(status.body)).not.toMatch(/ghp_Source|hf_Ingest/);
    expect(
      leaks(root, [SOURCE_SECRET, INGEST_ID_SECRET, ...PLANTED_SECRETS.map((p) => p.secret)]),
    ).toEqual([]);
  });

  it('a transcript: secrets in its four text paths, its session id and cwd, and in source and ingest_id reach no file', async () => {
    const { root, server, token } = await serve();
    const body = {
      project: 'demo',
      source: `agent:${SOURCE_SECRET}`,
      ingest_id: `t-${INGEST_ID_SECRET}`,
      format: 'claude',
      transcript: claudeTranscriptWithSecrets(),
    };
    await ingestUntilDone(server.url, token, body);
    expect((await call(server.url, 'POST', '/memory/ingest', { token, body })).status).toBe(409);
    expect(leaks(root, [SOURCE_SECRET, INGEST_ID_SECRET, ...ALL_PLANTED])).toEqual([]);
  });
});
