import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isMemError, itemId, type Payload } from '@mem/core';
import { loadStandingQueries } from '@mem/ingest';
import type { Caller, Registry } from '@mem/registry';
import { startServer, type RunningServer } from '@mem/server';
import {
  asRoot,
  call,
  callerFor,
  mint,
  registryAt,
  seedIdentity,
  tempDataRoot,
  writeStandingQueries,
} from './support.js';

/*
 * Stop 32 (board "Cited sources"): a cited path confined to the data root still let a token
 * holder of project A probe any file under it — project B's files among them — through the
 * freshness verdict (exists or not, the guessed digest or not). A project's standing-queries
 * file now lists the directories its items may cite (`cites:`); a project that lists none may
 * cite the data root less every directory another project lists. So nothing under beta's
 * listed directory is learnt by alpha (lists nothing) or delta (lists its own): the write is
 * refused alike and the read is the fixed 'outside' verdict alike, whether the file exists
 * and whether the digest is right.
 */
const SECRET = 'Beta signing key: 7f3a\n';
const OTHER = 'Deploys go blue.\n';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const WRONG = sha256('a guess');

const { root, cleanup } = tempDataRoot(['alpha', 'beta', 'delta']);
let registry: Registry;
let alice: Caller;
let aliceSecret = '';
let bob: Caller;

/** Pairs that probe beta's listed directory: the first names a file there, the second nothing. */
const PROBES: Record<'alpha' | 'delta', [name: string, exists: string, missing: string][]> = {
  alpha: [
    ['a file in it', 'beta-docs/secret.txt', 'beta-docs/missing.txt'],
    ['a file in a directory under it', 'beta-docs/sub/secret.txt', 'beta-docs/nosub/secret.txt'],
    ['a symlink into it', 'to-beta/secret.txt', 'to-beta/missing.txt'],
    ['an absolute path into it', join(root, 'beta-docs/secret.txt'), join(root, 'beta-docs/x')],
  ],
  delta: [
    ['a file in it', 'beta-docs/secret.txt', 'beta-docs/missing.txt'],
    [
      'a symlink in its own directory into it',
      'delta-docs/to-beta/secret.txt',
      'delta-docs/to-beta/missing.txt',
    ],
    ['a file no project lists', 'runbook.md', 'not-there.md'],
  ],
};

const OUTSIDE = { state: 'unknown', reason: 'source_outside_root', next_action: 'correct' };
type Warning = { id: string; state: string; reason: string; next_action: string };
const verdict = (w: Warning | undefined) =>
  w && { state: w.state, reason: w.reason, next_action: w.next_action };

function cites(project: string, dirs: string[]): void {
  writeStandingQueries(root, project);
  appendFileSync(
    join(root, 'queries', `${project}.yaml`),
    `cites:\n${dirs.map((d) => `  - ${d}\n`).join('')}`,
  );
}

async function headSeq(project: string): Promise<number> {
  let seq = 0;
  for await (const { event } of registry.context.engine.read(project)) seq = event.seq;
  return seq;
}

async function refusal(caller: Caller, name: string, input: Record<string, unknown>) {
  const project = input.project as string;
  const before = await headSeq(project);
  const error = await registry.invoke(name, caller, input).then(
    () => null,
    (e: unknown) => e,
  );
  expect(await headSeq(project), `${name} wrote despite refusing`).toBe(before);
  if (!isMemError(error)) throw new Error(`${name} accepted ${JSON.stringify(input)}`);
  return { code: error.code, message: error.message, details: error.details };
}

beforeAll(async () => {
  mkdirSync(join(root, 'beta-docs', 'sub'), { recursive: true });
  writeFileSync(join(root, 'beta-docs', 'secret.txt'), SECRET);
  writeFileSync(join(root, 'beta-docs', 'sub', 'secret.txt'), SECRET);
  mkdirSync(join(root, 'delta-docs'));
  writeFileSync(join(root, 'delta-docs', 'notes.md'), OTHER);
  writeFileSync(join(root, 'runbook.md'), OTHER);
  symlinkSync('beta-docs', join(root, 'to-beta'));
  symlinkSync('../beta-docs', join(root, 'delta-docs', 'to-beta'));
  cites('beta', ['beta-docs']);
  cites('delta', ['delta-docs/']);
  registry = await registryAt(root, { runJobs: false });
  await seedIdentity(registry, { alice: ['alpha', 'delta'], bob: ['beta'] });
  aliceSecret = (await mint(registry, { principal: 'alice' })).secret;
  alice = await callerFor(registry, aliceSecret);
  bob = await callerFor(registry, (await mint(registry, { principal: 'bob' })).secret);
});

afterAll(async () => {
  await registry?.close();
  cleanup();
});

describe("a citation into another project's listed directory", () => {
  for (const project of ['alpha', 'delta'] as const)
    it.each(PROBES[project])(
      `${project}: %s — add_items, remember and update_item refuse it alike, exists or not`,
      async (_name, exists, missing) => {
        const { ids } = (await registry.invoke('add_items', alice, {
          project,
          items: [{ type: 'fact', summary: 'To update' }],
        })) as { ids: string[] };
        const writes = (uri: string, digest: string): [string, Record<string, unknown>][] => [
          [
            'add_items',
            {
              project,
              items: [{ type: 'fact', summary: 'Cites', source_uri: uri, source_sha256: digest }],
            },
          ],
          [
            'remember',
            { project, text: 'Cites', type: 'fact', source_uri: uri, source_sha256: digest },
          ],
          [
            'update_item',
            { project, id: ids[0], source_uri: uri, source_sha256: digest, reason: 'cite' },
          ],
        ];
        const cases = [
          writes(exists, sha256(SECRET)),
          writes(exists, WRONG),
          writes(missing, sha256(SECRET)),
        ];
        for (let w = 0; w < cases[0]!.length; w++) {
          const answers = [];
          for (const c of cases) answers.push(await refusal(alice, c[w]![0], c[w]![1]));
          expect(answers[0]).toMatchObject({ code: 'INVALID_INPUT' });
          // The rule that failed and what the project lists (stop 32), never whether it exists.
          expect(answers[0]!.message).toMatch(
            project === 'alpha'
              ? /: in a directory another project lists under cites:, and alpha lists none \(queries\/alpha\.yaml\)$|a symlink in it leads out|absolute path outside/
              : /is outside delta's cites: \[delta-docs\] \(queries\/delta\.yaml\)$/,
          );
          expect(answers[1]).toEqual(answers[0]);
          const echoed = (a: { message: string }, uri: string) => a.message.split(uri).join('URI');
          expect(echoed(answers[2]!, missing)).toEqual(echoed(answers[0]!, exists));
        }
      },
    );

  for (const project of ['alpha', 'delta'] as const)
    it(`${project}: a log written before reads one fixed verdict in find and orient, exists or not, right digest or not`, async () => {
      const payloads: Payload[] = PROBES[project].flatMap(([name, exists, missing]) =>
        [
          [exists, sha256(SECRET)],
          [exists, WRONG],
          [missing, sha256(SECRET)],
        ].map(([uri, digest], i) => ({
          type: 'item_added' as const,
          item_type: 'fact' as const,
          summary: `Probe ${name} ${i}`,
          source_uri: uri!,
          source_sha256: digest!,
        })),
      );
      const { first_seq } = await registry.context.engine.append(project, payloads, {
        kind: 'cli',
      });
      const ids = payloads.map((_, i) => itemId(project, first_seq + i));
      const found = (await registry.invoke('find_items', alice, {
        projects: [project],
        query: 'Probe',
        include_stale: true,
        limit: 50,
      })) as { freshness_warnings: Warning[] };
      const warned = new Map(found.freshness_warnings.map((w) => [w.id, verdict(w)]));
      expect(ids.map((id) => warned.get(id))).toEqual(ids.map(() => OUTSIDE));
      const orient = (await registry.invoke('orient', alice, { project })) as {
        freshness_warnings: Warning[];
      };
      const oriented = new Map(orient.freshness_warnings.map((w) => [w.id, verdict(w)]));
      expect(ids.map((id) => oriented.get(id))).toEqual(ids.map(() => OUTSIDE));
    });

  it('beta cites its own directory; alpha, listing nothing, cites the rest of the root; delta cites its own', async () => {
    const fresh = async (caller: Caller, project: string, uri: string, text: string) => {
      const { ids } = (await registry.invoke('add_items', caller, {
        project,
        items: [
          { type: 'fact', summary: `Own ${uri}`, source_uri: uri, source_sha256: sha256(text) },
        ],
      })) as { ids: string[] };
      const found = (await registry.invoke('find_items', caller, {
        projects: [project],
        query: 'Own',
        limit: 50,
      })) as { items: { id: string; freshness: { state: string } }[] };
      return found.items.find((i) => i.id === ids[0])?.freshness.state;
    };
    // The secret is readable: alpha's 'outside' is the confinement, not a file it cannot open.
    expect(await fresh(bob, 'beta', 'beta-docs/secret.txt', SECRET)).toBe('fresh');
    expect(await fresh(alice, 'alpha', 'runbook.md', OTHER)).toBe('fresh');
    expect(await fresh(alice, 'delta', 'delta-docs/notes.md', OTHER)).toBe('fresh');
  });
});

describe('over HTTP', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(registry, {
      port: 0,
      rateLimits: { burstPerSecond: 0, ingestPerHour: 0, queryPerHour: 0 },
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("alpha's remember into beta's directory is one 400 whether the file exists; find reads one verdict", async () => {
    const ask = (uri: string, digest: string) =>
      call(server.url, 'POST', '/memory/remember', {
        token: aliceSecret,
        body: {
          project: 'alpha',
          text: 'Http',
          type: 'fact',
          source_uri: uri,
          source_sha256: digest,
        },
      });
    const a = await ask('beta-docs/secret.txt', sha256(SECRET));
    const b = await ask('beta-docs/secret.txt', WRONG);
    const c = await ask('beta-docs/missing.txt', sha256(SECRET));
    expect(a.status).toBe(400);
    expect(a.body.error).toMatchObject({ code: 'INVALID_INPUT', details: { field: 'source_uri' } });
    expect(b.body).toEqual(a.body);
    const echoed = (e: { message: string }, uri: string) => ({
      ...e,
      message: e.message.split(uri).join('URI'),
    });
    expect(echoed(c.body.error, 'beta-docs/missing.txt')).toEqual(
      echoed(a.body.error, 'beta-docs/secret.txt'),
    );

    const uris: [string, string][] = [
      ['beta-docs/secret.txt', sha256(SECRET)],
      ['beta-docs/secret.txt', WRONG],
      ['beta-docs/missing.txt', sha256(SECRET)],
    ];
    const { first_seq } = await registry.context.engine.append(
      'alpha',
      uris.map(([uri, digest], i) => ({
        type: 'item_added',
        item_type: 'fact',
        summary: `Httpprobe ${i}`,
        source_uri: uri,
        source_sha256: digest,
      })),
      { kind: 'cli' },
    );
    const found = await call(server.url, 'POST', '/memory/items/find', {
      token: aliceSecret,
      body: { projects: ['alpha'], query: 'Httpprobe' },
    });
    expect(found.status).toBe(200);
    expect(found.body.items).toEqual([]);
    const byId = new Map(
      (found.body.freshness_warnings as Warning[]).map((w) => [w.id, verdict(w)]),
    );
    expect(uris.map((_, i) => byId.get(itemId('alpha', first_seq + i)))).toEqual(
      uris.map(() => OUTSIDE),
    );
  });

  // Stop-32 walk: --source without its digest was refused; the write reads the file instead.
  it('remember of a file in the project cites without a digest records the sha256 it reads; a URI with a scheme still needs one', async () => {
    const made = await call(server.url, 'POST', '/memory/remember', {
      token: aliceSecret,
      body: {
        project: 'delta',
        text: 'Http digest',
        type: 'fact',
        source_uri: 'delta-docs/notes.md',
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const read = (await registry.invoke('read_items', alice, {
      project: 'delta',
      ids: made.body.ids,
    })) as { items: { source_sha256: string }[] };
    expect(read.items.map((i) => i.source_sha256)).toEqual([sha256(OTHER)]);
    const unpaired = await call(server.url, 'POST', '/memory/items', {
      token: aliceSecret,
      body: {
        project: 'delta',
        items: [{ type: 'fact', summary: 'Http wiki', source_uri: 'https://wiki.example/x' }],
      },
    });
    expect(unpaired.status).toBe(400);
    expect(unpaired.body.error).toMatchObject({
      code: 'INVALID_INPUT',
      details: { field: 'items[0].source_sha256' },
    });
  });
});

describe('a cites: list with a bad entry', () => {
  it.each([
    ['../up', "'..'"],
    ['/etc', 'absolute'],
    ['docs/.git', "starting with '.'"],
    ['log/beta', "mem's own log/"],
    ['Queries', "mem's own Queries/"],
    ['docs\\\\sub', 'backslash'],
  ])(
    '%s is refused at load, naming the key and entry, by the registry and by ingest',
    async (entry, says) => {
      const { root: bad, cleanup: done } = tempDataRoot(['gamma', 'epsilon']);
      appendFileSync(join(bad, 'queries', 'gamma.yaml'), `cites:\n  - docs\n  - "${entry}"\n`);
      const other = await registryAt(bad, { runJobs: false });
      try {
        await seedIdentity(other, { carol: ['epsilon'] });
        const carol = await callerFor(other, (await mint(other, { principal: 'carol' })).secret);
        // Another project's list is read too (its directories are kept from every project): refused, never guessed.
        const error = await other
          .invoke('remember', carol, {
            project: 'epsilon',
            text: 'Cites',
            type: 'fact',
            source_uri: 'docs/a.md',
            source_sha256: WRONG,
          })
          .then(
            () => null,
            (e: unknown) => e,
          );
        if (!isMemError(error)) throw new Error('accepted');
        expect(error.code).toBe('CONFIG_INVALID');
        // With the line the entry is on, as a sources: error says it (stop 32).
        const line =
          readFileSync(join(bad, 'queries', 'gamma.yaml'), 'utf8').split('\n').length - 1;
        expect(error.message).toContain(`gamma.yaml:${line}: cites[1]: `);
        expect(error.message).toContain(says);
        expect(() =>
          loadStandingQueries(join(bad, 'queries'), 'gamma', { resolveSources: false }),
        ).toThrow(
          expect.objectContaining({
            code: 'CONFIG_INVALID',
            message: expect.stringContaining('cites[1]'),
          }),
        );
      } finally {
        await other.close();
        done();
      }
    },
  );

  // Stop-32 walk: a typo (`doc` for `docs`) or a file was taken silently, and every item the
  // project cites was held back as outside its cites.
  it.each([
    ['doc', 'missing directory'],
    ['runbook.md', 'is not a directory'],
  ])(
    'an entry naming no directory (%s) is refused with its line, as a sources: entry is',
    async (entry, says) => {
      const { root: bad, cleanup: done } = tempDataRoot(['gamma']);
      mkdirSync(join(bad, 'docs'));
      writeFileSync(join(bad, 'docs', 'a.md'), OTHER);
      writeFileSync(join(bad, 'runbook.md'), OTHER);
      const file = join(bad, 'queries', 'gamma.yaml');
      appendFileSync(file, `cites:\n  - docs\n  - ${entry}\n`);
      const line = readFileSync(file, 'utf8').split('\n').length - 1;
      const other = await registryAt(bad, { runJobs: false });
      try {
        const error = await asRoot(other, 'remember', {
          project: 'gamma',
          text: 'Cites',
          type: 'fact',
          source_uri: 'docs/a.md',
        }).then(
          () => null,
          (e: unknown) => e,
        );
        if (!isMemError(error)) throw new Error('accepted');
        expect(error.code).toBe('CONFIG_INVALID');
        expect(error.message).toContain(`gamma.yaml:${line}: cites[1]: `);
        expect(error.message).toContain(says);
        expect(() => loadStandingQueries(join(bad, 'queries'), 'gamma')).toThrow(
          expect.objectContaining({ message: expect.stringContaining(says) }),
        );
      } finally {
        await other.close();
        done();
      }
    },
  );

  it('./docs is docs, as other paths in the file are read', async () => {
    const { root: good, cleanup: done } = tempDataRoot(['gamma']);
    mkdirSync(join(good, 'docs'));
    writeFileSync(join(good, 'docs', 'a.md'), OTHER);
    writeFileSync(join(good, 'runbook.md'), OTHER);
    appendFileSync(join(good, 'queries', 'gamma.yaml'), 'cites:\n  - ./docs/\n');
    const other = await registryAt(good, { runJobs: false });
    try {
      const cite = (uri: string) =>
        asRoot(other, 'remember', {
          project: 'gamma',
          text: 'Cites',
          type: 'fact',
          source_uri: uri,
        });
      await expect(cite('docs/a.md')).resolves.toMatchObject({ ids: [expect.any(String)] });
      await expect(cite('runbook.md')).rejects.toThrow(
        "source_uri: runbook.md is outside gamma's cites: [docs] (queries/gamma.yaml)",
      );
    } finally {
      await other.close();
      done();
    }
  });

  it('a good list loads in ingest too, its trailing slash dropped', () => {
    expect(() =>
      loadStandingQueries(join(root, 'queries'), 'delta', { resolveSources: false }),
    ).not.toThrow();
  });
});
