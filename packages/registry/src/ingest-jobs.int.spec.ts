import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hasErrorCode, type LogEvent } from '@mem/core';
import {
  callerFor,
  mint,
  registryAt,
  seedIdentity,
  tempDataRoot,
  until,
} from '../../../test/api/support.js';
import type { Caller } from './caller.js';
import type { Registry } from './registry.js';

const SHORT_CLAUDE = new URL(
  '../../../test/fixtures/transcripts/claude/spotter-short.jsonl',
  import.meta.url,
);
const CODEX_ROLLOUT = new URL(
  '../../sources/src/codex/__fixtures__/sessions/2025/09/20/rollout-2025-09-20T10-00-00-0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl',
  import.meta.url,
);
const PLANTED = 'ghp_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function open(root: string, runJobs = true): Promise<Registry> {
  const registry = await registryAt(root, { runJobs });
  cleanups.push(() => registry.close());
  return registry;
}

async function setup(
  runJobs = true,
): Promise<{ root: string; registry: Registry; alice: Caller; secret: string }> {
  const { root, cleanup } = tempDataRoot(['alpha']);
  cleanups.push(cleanup);
  const registry = await open(root, runJobs);
  await seedIdentity(registry, { alice: ['alpha'] });
  const token = await mint(registry, { principal: 'alice', label: 'agent' });
  return { root, registry, alice: await callerFor(registry, token.secret), secret: token.secret };
}

async function events(registry: Registry, project: string): Promise<LogEvent[]> {
  const out: LogEvent[] = [];
  for await (const { event } of registry.context.engine.read(project)) out.push(event);
  return out;
}

const records = [
  { role: 'user', text: 'Why did uploads over 10KB fail behind the gateway?' },
  {
    role: 'assistant',
    text: `Root cause: the ingress buffered bodies in 8KB. Fixed by raising client_body_buffer_size. Key was ${PLANTED}`,
  },
];

type Job = { job_id: string; status: string; status_url: string };

describe('ingest jobs', () => {
  it('accepts records as an event, runs the standing queries over them, and reports done', async () => {
    const { registry, alice } = await setup();
    const job = (await registry.invoke('ingest_submit', alice, {
      project: 'alpha',
      source: 'agent:t1',
      ingest_id: 'batch-1',
      records,
    })) as Job;
    expect(job).toMatchObject({
      ingest_id: 'batch-1',
      project: 'alpha',
      status_url: `/memory/ingest/${job.job_id}`,
    });
    const done = await until(async () => {
      const status = (await registry.invoke('ingest_status', alice, { job_id: job.job_id })) as {
        status: string;
      };
      return status.status === 'done' ? status : undefined;
    });
    expect(done).toMatchObject({ records: 2, format: 'records', chunks: 1, error: null });
    const log = await events(registry, 'alpha');
    expect(log[0]).toMatchObject({
      type: 'ingest_accepted',
      job_id: job.job_id,
      writer: { kind: 'api', principal: 'alice', token: 'agent' },
    });
    expect(log.some((e) => e.type === 'chunk' && e.source === 'agent:t1')).toBe(true);
    expect(log.filter((e) => e.type === 'ingest_finished')).toHaveLength(1);
  });

  it('the same ingest_id is the same job while it runs, and a conflict naming it once done; one set of events', async () => {
    const { registry, alice } = await setup(false);
    const first = (await registry.invoke('ingest_submit', alice, {
      project: 'alpha',
      source: 'agent:t1',
      ingest_id: 'same',
      records,
    })) as Job;
    const again = (await registry.invoke('ingest_submit', alice, {
      project: 'alpha',
      source: 'agent:t1',
      ingest_id: 'same',
      records,
    })) as Job;
    expect(again.job_id).toBe(first.job_id);
    expect(again.status).toBe('queued');
    // This registry does not run jobs (`mem serve --no-jobs`): a second one on the root runs it.
    const runner = await open(registry.context.engine.paths.root);
    await runner.context.jobs.idle();
    await until(async () =>
      (await runner.context.stores.fresh()).control.ingestJob(first.job_id)?.status === 'done'
        ? true
        : undefined,
    );
    let conflict: unknown;
    try {
      await registry.invoke('ingest_submit', alice, {
        project: 'alpha',
        source: 'agent:t1',
        ingest_id: 'same',
        records,
      });
    } catch (error) {
      conflict = error;
    }
    expect(hasErrorCode(conflict, 'CONFLICT')).toBe(true);
    expect((conflict as { details: unknown }).details).toMatchObject({
      job_id: first.job_id,
      status: 'done',
      status_url: `/memory/ingest/${first.job_id}`,
    });
    const log = await events(registry, 'alpha');
    expect(log.filter((e) => e.type === 'ingest_accepted')).toHaveLength(1);
    expect(log.filter((e) => e.type === 'ingest_finished')).toHaveLength(1);
  });

  it('concurrent submissions: one job per ingest_id, retries answered with it, every job answerable on return', async () => {
    const { registry, alice } = await setup(false);
    const ids = ['c-1', 'c-2', 'c-3', 'c-1', 'c-2', 'c-1'];
    const jobs = await Promise.all(
      ids.map(async (ingest_id) => {
        const job = (await registry.invoke('ingest_submit', alice, {
          project: 'alpha',
          source: 'agent:c',
          ingest_id,
          records,
        })) as Job;
        // Answerable the moment the acceptance returns: the projection already holds the job.
        const status = (await registry.invoke('ingest_status', alice, { job_id: job.job_id })) as {
          ingest_id: string;
        };
        return { ingest_id, job: job.job_id, status: status.ingest_id };
      }),
    );
    for (const { ingest_id, status } of jobs) expect(status).toBe(ingest_id);
    const jobOf = (id: string) => new Set(jobs.filter((j) => j.ingest_id === id).map((j) => j.job));
    expect([jobOf('c-1').size, jobOf('c-2').size, jobOf('c-3').size]).toEqual([1, 1, 1]);
    const accepted = (await events(registry, 'alpha')).filter((e) => e.type === 'ingest_accepted');
    expect(accepted.map((e) => (e as { ingest_id: string }).ingest_id).sort()).toEqual([
      'c-1',
      'c-2',
      'c-3',
    ]);
  });

  it('without ingest_id, the batch content is the key', async () => {
    const { registry, alice } = await setup(false);
    const a = (await registry.invoke('ingest_submit', alice, {
      project: 'alpha',
      source: 'agent:x',
      records,
    })) as Job & { ingest_id: string };
    const b = (await registry.invoke('ingest_submit', alice, {
      project: 'alpha',
      source: 'agent:x',
      records,
    })) as Job & { ingest_id: string };
    expect(b.job_id).toBe(a.job_id);
    expect(a.ingest_id).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('reads a posted Claude Code transcript with the same adapter as files, scrubbing secrets before the log', async () => {
    const { root, registry, alice } = await setup();
    const transcript =
      readFileSync(SHORT_CLAUDE, 'utf8') +
      JSON.stringify({
        type: 'user',
        uuid: '11111111-2222-4333-8444-999999999999',
        sessionId: 's',
        timestamp: '2026-01-01T00:00:00.000Z',
        message: { role: 'user', content: `my key is ${PLANTED}` },
      }) +
      '\n';
    const job = (await registry.invoke('ingest_submit', alice, {
      project: 'alpha',
      source: 'agent:t2',
      transcript,
      format: 'claude',
    })) as Job;
    await registry.context.jobs.idle();
    expect(
      (await registry.invoke('ingest_status', alice, { job_id: job.job_id })) as object,
    ).toMatchObject({ status: 'done', format: 'claude' });
    const accepted = (await events(registry, 'alpha'))[0] as {
      records: { source: string; text: string }[];
    };
    expect(accepted.records.length).toBeGreaterThan(3);
    expect(accepted.records[0]!.source).toBe('agent:t2');
    const log = readFileSync(join(root, 'log', 'alpha', '000001.jsonl'), 'utf8');
    expect(log).not.toContain(PLANTED);
    expect(log).toContain('[REDACTED:');
  });

  it('a later job under a known source ingests exactly its new records and says how many it skipped', async () => {
    const { registry, alice } = await setup();
    const more = [
      { role: 'user', text: 'Next: why did the nightly export time out on Sundays?' },
      {
        role: 'assistant',
        text: 'Root cause: the vacuum job held a lock on the export table. Fixed by moving vacuum to Saturday.',
      },
    ];
    const run = async (ingest_id: string, batch: typeof records) => {
      const job = (await registry.invoke('ingest_submit', alice, {
        project: 'alpha',
        source: 'agent:same',
        ingest_id,
        records: batch,
      })) as Job;
      await registry.context.jobs.idle();
      return (await registry.invoke('ingest_status', alice, { job_id: job.job_id })) as {
        status: string;
        chunks: number;
        skipped: unknown;
      };
    };
    expect(await run('first', records)).toMatchObject({ status: 'done', chunks: 1, skipped: null });
    // Only new records under the same source: none of them was ingested before.
    expect(await run('only-new', more)).toMatchObject({ status: 'done', chunks: 1, skipped: null });
    // The first job's records again, plus one new: exactly the new one is chunked.
    const third = [
      ...records,
      { role: 'user', text: 'And why did the cache warmer double-count hits?' },
    ];
    expect(await run('grown', third)).toMatchObject({
      status: 'done',
      chunks: 1,
      skipped: { records: 2, reason: 'already ingested' },
    });
    const chunkEvents = (await events(registry, 'alpha')).filter(
      (e) => e.type === 'chunk' && e.source === 'agent:same',
    );
    // One query in the fixture's standing queries per chunk: three jobs, three chunks.
    expect(new Set(chunkEvents.map((e) => (e as { sha256: string }).sha256)).size).toBe(3);
  });

  it('reads a posted Codex CLI rollout with the Codex reader (format codex)', async () => {
    const { registry, alice } = await setup();
    const job = (await registry.invoke('ingest_submit', alice, {
      project: 'alpha',
      source: 'agent:codex',
      transcript: readFileSync(CODEX_ROLLOUT, 'utf8'),
      format: 'codex',
    })) as Job;
    await registry.context.jobs.idle();
    expect(
      (await registry.invoke('ingest_status', alice, { job_id: job.job_id })) as object,
    ).toMatchObject({ status: 'done', format: 'codex' });
    const accepted = (await events(registry, 'alpha'))[0] as {
      format: string;
      records: { role: string; text: string; source: string; line?: number }[];
    };
    expect(accepted.format).toBe('codex');
    // The same records the reader gives for the file: the event echo and harness text left out.
    expect(accepted.records.map((r) => [r.role, r.text.split('\n')[0], r.line])).toEqual([
      ['user', 'Why does the theme loader crash on startup?', 6],
      ['assistant', '[thinking] **Inspecting the theme loader**', 8],
      [
        'tool_call',
        'shell {"command":["bash","-lc","npm test -- theme"],"workdir":"/home/dev/theme-app"}',
        10,
      ],
      ['tool_result', 'shell error:', 11],
      ['tool_call', 'apply_patch *** Begin Patch', 14],
      ['tool_result', 'apply_patch result:', 15],
      ['tool_call', 'web_search {"type":"search","query":"css hex color validation regex"}', 17],
      [
        'assistant',
        'The loader crashed because hexToRgb threw on an invalid hex colour; it now falls back to the dark theme.',
        18,
      ],
      ['summary', '## Key decisions', 21],
    ]);
    expect(new Set(accepted.records.map((r) => r.source))).toEqual(new Set(['agent:codex']));
  });

  it("a posted transcript's evidence keeps the caller's source label", async () => {
    const { registry, alice } = await setup();
    const job = (await registry.invoke('ingest_submit', alice, {
      project: 'alpha',
      source: 'agent:readme',
      transcript: readFileSync(SHORT_CLAUDE, 'utf8'),
      format: 'claude',
    })) as Job;
    await registry.context.jobs.idle();
    expect(
      (await registry.invoke('ingest_status', alice, { job_id: job.job_id })) as object,
    ).toMatchObject({ status: 'done' });
    const log = await events(registry, 'alpha');
    const sources = new Set(
      log
        .filter((e) => e.type === 'chunk' || e.type === 'evidence')
        .map((e) => (e as { source: string }).source),
    );
    expect([...sources]).toEqual(['agent:readme']);
  });

  it('refuses bad input before anything is written', async () => {
    const { registry, alice } = await setup(false);
    const bad = [
      { project: 'alpha', source: 'agent:x' },
      { project: 'alpha', source: 'agent:x', records, transcript: 'x' },
      { project: 'alpha', source: 'agent:x', records, format: 'claude' },
      { project: 'alpha', source: 'agent:x', transcript: '{}\n', format: 'gemini' },
      { project: 'alpha', source: 'agent:x', records: [{ role: 'robot', text: 'hi' }] },
      { project: 'alpha', source: 'agent x', records },
      { project: 'alpha', source: 'agent:x', transcript: 'not a transcript\n{"also": "not"}\n' },
      { project: 'alpha', source: 'agent:x', records, extra: 1 },
    ];
    for (const input of bad) {
      let error: unknown;
      try {
        await registry.invoke('ingest_submit', alice, input);
      } catch (e) {
        error = e;
      }
      expect(hasErrorCode(error, 'INVALID_INPUT'), JSON.stringify(input).slice(0, 80)).toBe(true);
    }
    expect((await registry.context.engine.head('alpha')).seq).toBe(0);
  });

  it('a project without standing queries is refused by name, nothing written', async () => {
    const { registry } = await setup(false);
    const { root } = registry.context.engine.paths;
    await registry.invoke('project_add', registry.local('local:test'), { name: 'bare' });
    await registry.invoke('member_add', registry.local('local:test'), {
      project: 'bare',
      principal: 'alice',
    });
    const caller = await callerFor(registry, (await mint(registry, { principal: 'alice' })).secret);
    let error: unknown;
    try {
      await registry.invoke('ingest_submit', caller, {
        project: 'bare',
        source: 'agent:x',
        records,
      });
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'CONFIG_INVALID', details: { file: 'queries/bare.yaml' } });
    expect((error as Error).message).not.toContain(root);
    expect((await registry.context.engine.head('bare')).seq).toBe(0);
  });

  it('a job accepted before a restart completes after it', async () => {
    const { root, registry, alice } = await setup(false);
    const job = (await registry.invoke('ingest_submit', alice, {
      project: 'alpha',
      source: 'agent:t3',
      records,
    })) as Job;
    expect(
      (
        (await registry.invoke('ingest_status', alice, { job_id: job.job_id })) as {
          status: string;
        }
      ).status,
    ).toBe('queued');
    await registry.close();
    const restarted = await open(root);
    await restarted.context.jobs.idle();
    const after = (await restarted.invoke('ingest_status', alice, { job_id: job.job_id })) as {
      status: string;
    };
    expect(after.status).toBe('done');
  });
});
