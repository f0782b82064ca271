import { createHash } from 'node:crypto';
import {
  appendFileSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isMemError, itemId, type Payload } from '@mem/core';
import { loadStandingQueries } from '@mem/ingest';
import type { Caller, Registry } from '@mem/registry';
import type { RunningServer } from '@mem/server';
import {
  asRoot,
  call,
  callerFor,
  headSeq,
  mint,
  registryAt,
  seedIdentity,
  serveUnlimited,
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

const { root, cleanup } = tempDataRoot(['alpha', 'beta', 'delta', 'omega']);
let registry: Registry;
let alice: Caller;
let aliceSecret = '';
let bob: Caller;

/** Pairs that probe beta's listed directory: the first names a file there, the second nothing. */
const PROBES: Record<
  'alpha' | 'delta' | 'omega',
  [name: string, exists: string, missing: string][]
> = {
  alpha: [
    ['a file in it', 'beta-docs/secret.txt', 'beta-docs/missing.txt'],
    ['a file in a directory under it', 'beta-docs/sub/secret.txt', 'beta-docs/nosub/secret.txt'],
    ['a symlink into it', 'to-beta/secret.txt', 'to-beta/missing.txt'],
    ['an absolute path into it', join(root, 'beta-docs/secret.txt'), join(root, 'beta-docs/x')],
  ],
  // Lists nothing, like alpha (a project of its own: a find or orient names at most 20 warnings).
  omega: [
    // beta-docs/pointer.md -> ../runbook.md: nothing in beta's directory is looked at, so a
    // symlink there to a file alpha may cite reads like a missing file (mayEnter).
    ['a symlink in it to a file no project lists', 'beta-docs/pointer.md', 'beta-docs/none.md'],
    // beta lists pay-docs, a symlink to checkouts/payments/docs: its target is beta's too.
    [
      "a listed symlink's target",
      'checkouts/payments/docs/secret.txt',
      'checkouts/payments/docs/missing.txt',
    ],
    ['a listed symlink', 'pay-docs/secret.txt', 'pay-docs/missing.txt'],
    // beta lists repos/pay, under repos -> repos-real.
    [
      'a listed directory under a symlink, by its target',
      'repos-real/pay/secret.txt',
      'repos-real/pay/missing.txt',
    ],
  ],
  delta: [
    ['a file in it', 'beta-docs/secret.txt', 'beta-docs/missing.txt'],
    [
      'a symlink in its own directory into it',
      'delta-docs/to-beta/secret.txt',
      'delta-docs/to-beta/missing.txt',
    ],
    ['a file no project lists', 'runbook.md', 'not-there.md'],
    [
      "a listed symlink's target",
      'checkouts/payments/docs/secret.txt',
      'checkouts/payments/docs/missing.txt',
    ],
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

async function refusal(caller: Caller, name: string, input: Record<string, unknown>) {
  const project = input.project as string;
  const before = await headSeq(registry, project);
  const error = await registry.invoke(name, caller, input).then(
    () => null,
    (e: unknown) => e,
  );
  expect(await headSeq(registry, project), `${name} wrote despite refusing`).toBe(before);
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
  symlinkSync('../runbook.md', join(root, 'beta-docs', 'pointer.md'));
  mkdirSync(join(root, 'checkouts', 'payments', 'docs'), { recursive: true });
  writeFileSync(join(root, 'checkouts', 'payments', 'docs', 'secret.txt'), SECRET);
  symlinkSync('checkouts/payments/docs', join(root, 'pay-docs'));
  mkdirSync(join(root, 'repos-real', 'pay'), { recursive: true });
  writeFileSync(join(root, 'repos-real', 'pay', 'secret.txt'), SECRET);
  symlinkSync('repos-real', join(root, 'repos'));
  cites('beta', ['beta-docs', 'pay-docs', 'repos/pay']);
  cites('delta', ['delta-docs/']);
  registry = await registryAt(root, { runJobs: false });
  await seedIdentity(registry, { alice: ['alpha', 'delta', 'omega'], bob: ['beta'] });
  aliceSecret = (await mint(registry, { principal: 'alice' })).secret;
  alice = await callerFor(registry, aliceSecret);
  bob = await callerFor(registry, (await mint(registry, { principal: 'bob' })).secret);
});

afterAll(async () => {
  await registry?.close();
  cleanup();
});

describe("a citation into another project's listed directory", () => {
  for (const project of ['alpha', 'delta', 'omega'] as const)
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
            project === 'delta'
              ? /is outside delta's cites: \[delta-docs\] \(queries\/delta\.yaml\)$/
              : new RegExp(
                  `: in a directory another project lists under cites:, and ${project} lists none \\(queries/${project}\\.yaml\\)$|a symlink in it leads out|absolute path outside`,
                ),
          );
          expect(answers[1]).toEqual(answers[0]);
          const echoed = (a: { message: string }, uri: string) => a.message.split(uri).join('URI');
          expect(echoed(answers[2]!, missing)).toEqual(echoed(answers[0]!, exists));
        }
      },
    );

  for (const project of ['alpha', 'delta', 'omega'] as const)
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
    // A listed symlink, and a listed directory under one, are beta's own.
    expect(await fresh(bob, 'beta', 'pay-docs/secret.txt', SECRET)).toBe('fresh');
    expect(await fresh(bob, 'beta', 'repos/pay/secret.txt', SECRET)).toBe('fresh');
    expect(await fresh(alice, 'alpha', 'runbook.md', OTHER)).toBe('fresh');
    expect(await fresh(alice, 'delta', 'delta-docs/notes.md', OTHER)).toBe('fresh');
  });
});

describe('over HTTP', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await serveUnlimited(registry);
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

describe('a listed symlink swapped', () => {
  it("is seen by the next answer: its new target is beta's, its old one no longer", async () => {
    mkdirSync(join(root, 'checkouts', 'other'));
    writeFileSync(join(root, 'checkouts', 'other', 'secret.txt'), SECRET);
    const uris = ['checkouts/other/secret.txt', 'checkouts/payments/docs/secret.txt'];
    const { first_seq } = await registry.context.engine.append(
      'alpha',
      uris.map((uri, i) => ({
        type: 'item_added',
        item_type: 'fact',
        summary: `Swapped ${i}`,
        source_uri: uri,
        source_sha256: sha256(SECRET),
      })),
      { kind: 'cli' },
    );
    const ids = uris.map((_, i) => itemId('alpha', first_seq + i));
    const states = async () => {
      const found = (await registry.invoke('find_items', alice, {
        projects: ['alpha'],
        query: 'Swapped',
        include_stale: true,
      })) as { items: { id: string; freshness: { state: string; reason?: string } }[] };
      const byId = new Map(found.items.map((i) => [i.id, i.freshness.reason ?? i.freshness.state]));
      return ids.map((id) => byId.get(id));
    };
    expect(await states()).toEqual(['fresh', 'source_outside_root']);
    rmSync(join(root, 'pay-docs'));
    symlinkSync('checkouts/other', join(root, 'pay-docs'));
    expect(await states()).toEqual(['source_outside_root', 'fresh']);
  });
});

/** A second data root: gamma's file is bad, epsilon lists nothing, eta lists eta-docs. */
async function withBadList(
  gamma: (queries: string) => void,
  check: (remember: (project: string, uri: string) => Promise<unknown>) => Promise<void>,
  fixed?: (queries: string) => void,
) {
  const { root: bad, cleanup: done } = tempDataRoot(['gamma', 'epsilon', 'eta']);
  const queries = join(bad, 'queries');
  appendFileSync(join(queries, 'eta.yaml'), 'cites:\n  - eta-docs\n');
  mkdirSync(join(bad, 'eta-docs'));
  writeFileSync(join(bad, 'eta-docs', 'n.md'), OTHER);
  // The directory gamma's good list names (a cites: entry must be a directory).
  mkdirSync(join(bad, 'docs'));
  writeFileSync(join(bad, 'runbook.md'), OTHER);
  const other = await registryAt(bad, { runJobs: false });
  try {
    await seedIdentity(other, { carol: ['gamma', 'epsilon', 'eta'] });
    const carol = await callerFor(other, (await mint(other, { principal: 'carol' })).secret);
    const remember = (project: string, uri: string) =>
      other
        .invoke('remember', carol, {
          project,
          text: 'Cites',
          type: 'fact',
          source_uri: uri,
          source_sha256: sha256(OTHER),
        })
        .then(
          () => null,
          (e: unknown) => (isMemError(e) ? { code: e.code, message: e.message } : e),
        );
    gamma(queries);
    await check(remember);
    // What gamma lists is unknown: the whole root is someone else's for epsilon (lists
    // nothing), refused like any outside path and not told of gamma's file; eta still cites
    // its own directory and nothing else.
    const epsilon = await remember('epsilon', 'runbook.md');
    expect(epsilon).toMatchObject({ code: 'INVALID_INPUT' });
    expect((epsilon as { message: string }).message).not.toContain('gamma');
    expect(await remember('eta', 'eta-docs/n.md')).toBeNull();
    expect(await remember('eta', 'runbook.md')).toMatchObject({ code: 'INVALID_INPUT' });
    if (fixed !== undefined) {
      // A failure is never remembered: once the file is good, the next answer reads it.
      fixed(queries);
      expect(await remember('epsilon', 'runbook.md')).toBeNull();
    }
  } finally {
    await other.close();
    done();
  }
}

describe('a cites: list with a bad entry', () => {
  it.each([
    ['../up', "'..'"],
    ['/etc', 'absolute'],
    ['docs/.git', "starting with '.'"],
    ['log/beta', "mem's own log/"],
    ['Queries', "mem's own Queries/"],
    ['docs\\\\sub', 'backslash'],
  ])(
    '%s is refused at load, naming the key and entry, to its own project alone and by ingest',
    async (entry, says) => {
      await withBadList(
        (queries) =>
          appendFileSync(join(queries, 'gamma.yaml'), `cites:\n  - docs\n  - "${entry}"\n`),
        async (remember) => {
          // gamma's own calls are refused, naming its file and entry: its owner fixes it.
          const own = await remember('gamma', 'docs/a.md');
          expect(own).toMatchObject({ code: 'CONFIG_INVALID' });
          // With the line the entry is on, as a sources: error says it.
          expect((own as { message: string }).message).toMatch(/gamma\.yaml:\d+: cites\[1\]: /);
          expect((own as { message: string }).message).toContain(says);
        },
      );
      const { root: bad, cleanup: done } = tempDataRoot(['gamma']);
      try {
        appendFileSync(join(bad, 'queries', 'gamma.yaml'), `cites:\n  - docs\n  - "${entry}"\n`);
        expect(() =>
          loadStandingQueries(join(bad, 'queries'), 'gamma', { resolveSources: false }),
        ).toThrow(
          expect.objectContaining({
            code: 'CONFIG_INVALID',
            message: expect.stringContaining('cites[1]'),
          }),
        );
      } finally {
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

  const GOOD = 'cites:\n  - docs\n';
  it.each<[string, (file: string) => void]>([
    ['empty (caught mid-save)', (file) => writeFileSync(file, '')],
    ['no mapping', (file) => writeFileSync(file, 'just words\n')],
    ['a dangling symlink', (file) => (rmSync(file), symlinkSync('../cfg/gamma.yaml', file))],
    ['a directory', (file) => (rmSync(file), mkdirSync(file))],
    [
      'more than 256 directories',
      (file) =>
        writeFileSync(
          file,
          `cites:\n${Array.from({ length: 257 }, (_, i) => `  - d${i}\n`).join('')}`,
        ),
    ],
  ])(
    'a queries file that is %s shields the whole root; its own project is refused',
    async (_name, spoil) =>
      withBadList(
        (queries) => spoil(join(queries, 'gamma.yaml')),
        async (remember) => {
          expect(await remember('gamma', 'docs/a.md')).toMatchObject({
            code: 'CONFIG_INVALID',
            message: expect.stringContaining('gamma.yaml'),
          });
        },
        (queries) => {
          rmSync(join(queries, 'gamma.yaml'), { recursive: true });
          writeFileSync(join(queries, 'gamma.yaml'), GOOD);
        },
      ),
  );

  it('a good list loads in ingest too, its trailing slash dropped', () => {
    expect(() =>
      loadStandingQueries(join(root, 'queries'), 'delta', { resolveSources: false }),
    ).not.toThrow();
  });
});
