import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  renameSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isMemError, itemId, type Payload } from '@mem/core';
import type { Caller, Registry } from '@mem/registry';
import type { RunningServer } from '@mem/server';
import {
  call,
  callerFor,
  headSeq,
  memoryPayloads,
  mint,
  registryAt,
  seedIdentity,
  serveUnlimited,
  tempDataRoot,
} from './support.js';

/*
 * Stop-31 (issue 13 §4, board "Cited sources"): every orient, open and find re-hashes a cited
 * local path, so a token holder could cite `/etc/shadow` or `../../other-repo/secret` with a
 * guessed digest and read, from the verdict, whether the path exists and whether it has that
 * digest. A cited path now resolves under the data root and stays inside it: a write that leaves
 * it is INVALID_INPUT naming the field, nothing appended; a read of a log written before (or of
 * a symlink swapped in later) answers one fixed verdict, `unknown` / `source_outside_root` (next
 * action `correct`: cite a path inside), the same for a path that exists, one that does not, and
 * one that has the digest. A top-level dot-entry (`.env`, `.git/config`) counts as outside.
 */
const SECRET = 'root:$6$guessable:19000:0:99999:7:::\n';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

// Made before the tests are collected: the attacks' paths name them.
const { root, cleanup } = tempDataRoot(['alpha']);
const outside = mkdtempSync(join(tmpdir(), 'mem-outside-'));
let registry: Registry;
let alice: Caller;
let aliceSecret = '';

/** Pairs of citations that leave the data root: the first names a file outside that exists, the second one that does not. */
function attacks(): [name: string, exists: string, missing: string][] {
  const there = join(outside, 'secret.txt');
  const nowhere = join(outside, 'missing.txt');
  return [
    ['an absolute path', there, nowhere],
    ['a file: URI', pathToFileURL(there).href, pathToFileURL(nowhere).href],
    ['..', relative(root, there), relative(root, nowhere)],
    [
      '.. after a directory',
      `docs/../${relative(root, there)}`,
      `docs/../${relative(root, nowhere)}`,
    ],
    ['a symlinked directory that leaves', 'away/secret.txt', 'away/missing.txt'],
    ['a symlink that leaves', 'to-secret', 'to-missing'],
    ['a symlink to a symlink that leaves', 'docs/via', 'docs/via-missing'],
    // Files that exist once beforeAll has run: the log of a project alice cannot reach.
    ["mem's own log of another project", 'log/beta/000001.jsonl', 'log/gamma/000001.jsonl'],
    ["mem's own state", '.mem/chain-heads/beta.json', '.mem/chain-heads/gamma.json'],
    // Stop-31 review: a top-level dot-entry (a repository's credentials, its environment).
    ['a top-level dot-file', '.env', '.env.local'],
    ['a file in a top-level dot-directory', '.git/config', '.git/credentials'],
    ['a symlink to a dot-file', 'docs/env', 'docs/env-local'],
    ['a FILE: URI in capitals', fileUpper(there), fileUpper(nowhere)],
  ];
}

/** A file: URI with its scheme in capitals: a scheme is matched whatever its case (RFC 3986 §3.1). */
function fileUpper(path: string): string {
  return pathToFileURL(path).href.replace(/^file:/, 'FILE:');
}

/** The citation a write names (its source_uri). */
function uriOf(input: unknown): string {
  const { source_uri, items } = input as { source_uri?: string; items?: { source_uri?: string }[] };
  return source_uri ?? items!.find((i) => i.source_uri !== undefined)!.source_uri!;
}

/** A refusal with the path it echoes put as URI, so two refusals of two paths compare. */
function echoing<T extends { message: string }>(answer: T, uri: string): T {
  return { ...answer, message: answer.message.split(uri).join('URI') };
}

async function refusal(name: string, caller: Caller, input: unknown) {
  const before = await headSeq(registry, 'alpha');
  const error = await registry.invoke(name, caller, input).then(
    () => null,
    (e: unknown) => e,
  );
  expect(await headSeq(registry, 'alpha'), `${name} wrote despite refusing`).toBe(before);
  if (!isMemError(error)) throw new Error(`${name} accepted ${JSON.stringify(input)}`);
  return { code: error.code, message: error.message, details: error.details };
}

const DIGEST = sha256(SECRET);
/** The fixed verdict of a citation that leaves the data root, whatever it names. */
const OUTSIDE = {
  state: 'unknown',
  reason: 'source_outside_root',
  next_action: 'correct',
  label: 'unknown',
};

type Warning = { id: string; state: string; reason: string; next_action: string; label: string };
/** What a warning says of its item, its id left out: two items' verdicts compared. */
const verdict = (w: Warning | undefined) =>
  w && { state: w.state, reason: w.reason, next_action: w.next_action, label: w.label };

beforeAll(async () => {
  writeFileSync(join(outside, 'secret.txt'), SECRET);
  mkdirSync(join(root, 'docs'));
  writeFileSync(join(root, 'runbook.md'), 'Deploys go blue.\n');
  symlinkSync(outside, join(root, 'away'));
  symlinkSync(join(outside, 'secret.txt'), join(root, 'to-secret'));
  symlinkSync(join(outside, 'missing.txt'), join(root, 'to-missing'));
  symlinkSync('../to-secret', join(root, 'docs', 'via'));
  symlinkSync('../to-missing', join(root, 'docs', 'via-missing'));
  symlinkSync('../runbook.md', join(root, 'docs', 'rb'));
  writeFileSync(join(root, '.env'), SECRET);
  mkdirSync(join(root, '.git'));
  writeFileSync(join(root, '.git', 'config'), SECRET);
  symlinkSync('../.env', join(root, 'docs', 'env'));
  symlinkSync('../.env.local', join(root, 'docs', 'env-local'));
  // Not mem's vault/ where names are case-sensitive (Linux): a directory of the project's own.
  mkdirSync(join(root, 'Vault'));
  writeFileSync(join(root, 'Vault', 'n.md'), 'Deploys go blue.\n');
  writeFileSync(join(root, 'docs', '.hidden-is-fine.md'), 'Deploys go blue.\n');
  registry = await registryAt(root, { runJobs: false });
  // One project per attack for the reads: at most 20 warnings ride on an answer.
  const reads = attacks().map((_, i) => `read-${i}`);
  await seedIdentity(registry, { alice: ['alpha', ...reads], bob: ['beta'] });
  aliceSecret = (await mint(registry, { principal: 'alice' })).secret;
  alice = await callerFor(registry, aliceSecret);
  // Another member's project, which alice cannot reach, has a log of its own.
  await registry.context.engine.append(
    'beta',
    [{ type: 'item_added', item_type: 'task', summary: 'Beta work' }],
    { kind: 'cli' },
  );
  await registry.context.engine.append(
    'alpha',
    memoryPayloads('run-promoted', `Seen: ${PROMOTED}`, PROMOTED).payloads,
    { kind: 'cli' },
  );
  // Each pair is what it says: the first names something that exists, the second nothing.
  const local = (uri: string) => (/^file:/i.test(uri) ? fileURLToPath(uri) : resolve(root, uri));
  for (const [name, exists, missing] of attacks()) {
    expect(existsSync(local(exists)), name).toBe(true);
    expect(existsSync(local(missing)), name).toBe(false);
  }
});

afterAll(async () => {
  await registry?.close();
  cleanup();
  rmSync(outside, { recursive: true, force: true });
});

describe('a write citing a path outside the data root', () => {
  it.each(attacks())(
    '%s: add_items, remember, update_item and a promotion refuse it alike, exists or not, nothing written',
    async (_name, exists, missing) => {
      const { ids } = (await registry.invoke('add_items', alice, {
        project: 'alpha',
        items: [{ type: 'fact', summary: `A fact to update (${_name})` }],
      })) as { ids: string[] };
      const writes = (uri: string): [string, unknown, string][] => [
        [
          'add_items',
          {
            project: 'alpha',
            items: [
              { type: 'task', summary: 'A task first' },
              { type: 'fact', summary: 'Cites it', source_uri: uri, source_sha256: DIGEST },
            ],
          },
          'items[1].source_uri',
        ],
        [
          'remember',
          {
            project: 'alpha',
            text: 'Cites it',
            type: 'rule',
            source_uri: uri,
            source_sha256: DIGEST,
          },
          'source_uri',
        ],
        [
          'update_item',
          { project: 'alpha', id: ids[0], source_uri: uri, source_sha256: DIGEST, reason: 'cite' },
          'source_uri',
        ],
        [
          'remember',
          {
            project: 'alpha',
            from_line: PROMOTED,
            type: 'fact',
            source_uri: uri,
            source_sha256: DIGEST,
          },
          'source_uri',
        ],
      ];
      const ruler = await callerFor(
        registry,
        (await mint(registry, { principal: 'alice', capabilities: ['may_write_rules'] })).secret,
      );
      for (const [[name, there, field], [, nowhere]] of zip(writes(exists), writes(missing))) {
        const caller = name === 'remember' ? ruler : alice;
        const a = await refusal(name, caller, there);
        const b = await refusal(name, caller, nowhere);
        expect(a).toMatchObject({ code: 'INVALID_INPUT', details: { field } });
        // The rule that failed, after the path as given (stop 32: not one generic sentence).
        expect(a.message).toMatch(
          new RegExp(
            `^${escape(field)}: ${escape(uriOf(there))}: (absolute path outside|leaves|a symlink in it leads out of) the data root|under mem's own`,
          ),
        );
        // Whether the outside path exists is not in the answer: only the path echoed differs.
        expect(echoing(b, uriOf(nowhere))).toEqual(echoing(a, uriOf(there)));
      }
    },
  );

  it('takes a path inside: relative, absolute, a file: URI, a symlink that stays; a non-file URI as it is', async () => {
    const inside = [
      'runbook.md',
      join(root, 'runbook.md'),
      pathToFileURL(join(root, 'runbook.md')).href,
      'docs/rb',
      'docs/../runbook.md',
      'https://wiki.example/runbook',
      'jira:PROJ-123',
      ...(process.platform === 'linux' ? ['Vault/n.md', 'docs/.hidden-is-fine.md'] : []),
    ];
    const { ids } = (await registry.invoke('add_items', alice, {
      project: 'alpha',
      items: inside.map((uri, i) => ({
        type: 'fact',
        summary: `Inside ${i}`,
        source_uri: uri,
        source_sha256: sha256('Deploys go blue.\n'),
      })),
    })) as { ids: string[] };
    expect(ids).toHaveLength(inside.length);
    const found = (await registry.invoke('find_items', alice, {
      projects: ['alpha'],
      query: 'Inside',
      include_stale: true,
      limit: 50,
    })) as { items: { id: string; freshness: { state: string } }[] };
    const states = new Map(found.items.map((i) => [i.id, i.freshness.state]));
    // The file inside reads the same through each spelling; a URI is not judged.
    expect(ids.map((id) => states.get(id))).toEqual([
      'fresh',
      'fresh',
      'fresh',
      'fresh',
      'fresh',
      'fresh',
      'fresh',
      // Vault/ is not vault/; a dot-entry below the top level is the project's own.
      ...(process.platform === 'linux' ? ['fresh', 'fresh'] : []),
    ]);
  });
});

describe('a read of a citation that leaves the data root (a log written before, a symlink swapped in)', () => {
  /** Facts as a log written before writes were confined holds them: appended, not through an operation. */
  async function legacy(project: string, citations: { summary: string; uri: string }[]) {
    const payloads: Payload[] = citations.map((c) => ({
      type: 'item_added',
      item_type: 'fact',
      summary: c.summary,
      source_uri: c.uri,
      source_sha256: DIGEST,
    }));
    const { first_seq } = await registry.context.engine.append(project, payloads, { kind: 'cli' });
    return citations.map((_, i) => itemId(project, first_seq + i));
  }

  it.each(attacks().map((attack, i) => [...attack, `read-${i}`] as const))(
    '%s: find and orient answer one fixed verdict, whether the path exists, has the digest, or not',
    async (name, exists, missing, project) => {
      // The digest is the outside secret's: were it read, the first would be 'unchanged' (fresh).
      const [there, nowhere, gone] = await legacy(project, [
        { summary: `Legacy ${name}, there`, uri: exists },
        { summary: `Legacy ${name}, nowhere`, uri: missing },
        // A deleted file inside the root: unreadable, not outside.
        { summary: 'Legacy deleted inside', uri: 'deleted.md' },
      ]);
      const found = (await registry.invoke('find_items', alice, {
        projects: [project],
        include_stale: true,
      })) as { items: { id: string }[]; freshness_warnings: Warning[] };
      const warned = new Map(found.freshness_warnings.map((w) => [w.id, w]));
      // Settled by a new citation too (stop 32: a confirmation leaves it unread, held back).
      expect(verdict(warned.get(gone!))).toEqual({
        state: 'unknown',
        reason: 'source_unreadable',
        next_action: 'correct',
        label: 'unknown',
      });
      // Its own reason, settled by a new citation (a confirmation would leave it unread).
      const expected = verdict(warned.get(there!));
      expect(expected).toEqual(OUTSIDE);
      expect(verdict(warned.get(nowhere!))).toEqual(expected);

      // orient (T0) delivers unanchored facts and warns of each, the same way.
      const orient = (await registry.invoke('orient', alice, { project })) as {
        freshness_warnings: Warning[];
      };
      const oriented = new Map(orient.freshness_warnings.map((w) => [w.id, w]));
      expect([there, nowhere, gone].map((id) => verdict(oriented.get(id!)))).toEqual([
        expected,
        expected,
        verdict(warned.get(gone!)),
      ]);
    },
  );

  it('open (T1) judges its anchored facts the same way', async () => {
    const [exists] = attacks()[0]!.slice(1);
    const [missing] = attacks()[0]!.slice(2);
    const { ids } = (await registry.invoke('add_items', alice, {
      project: 'alpha',
      items: [{ type: 'thread', summary: 'Anchor thread' }],
    })) as { ids: string[] };
    const payloads: Payload[] = [exists!, missing!].map((uri, i) => ({
      type: 'item_added',
      item_type: 'fact',
      summary: `Anchored legacy ${i}`,
      source_uri: uri,
      source_sha256: DIGEST,
      anchors: [ids[0]!],
    }));
    const { first_seq } = await registry.context.engine.append('alpha', payloads, { kind: 'cli' });
    const opened = (await registry.invoke('open', alice, { project: 'alpha', id: ids[0] })) as {
      freshness_warnings: Warning[];
    };
    const byId = new Map(opened.freshness_warnings.map((w) => [w.id, w]));
    const a = verdict(byId.get(itemId('alpha', first_seq)));
    expect(a).toEqual(OUTSIDE);
    expect(verdict(byId.get(itemId('alpha', first_seq + 1)))).toEqual(a);
  });

  it('a cited file, or a directory above it, swapped for a symlink to outside after the write is not read', async () => {
    mkdirSync(join(root, 'swap', 'dir'), { recursive: true });
    writeFileSync(join(root, 'swap', 'file.md'), 'Inside.\n');
    writeFileSync(join(root, 'swap', 'dir', 'secret.txt'), 'Inside.\n');
    // The digest written is the outside secret's: followed, the swapped link would read 'unchanged'.
    const { ids } = (await registry.invoke('add_items', alice, {
      project: 'alpha',
      items: [
        { type: 'fact', summary: 'Swap file', source_uri: 'swap/file.md', source_sha256: DIGEST },
        {
          type: 'fact',
          summary: 'Swap dir',
          source_uri: 'swap/dir/secret.txt',
          source_sha256: DIGEST,
        },
      ],
    })) as { ids: string[] };
    const warnings = async () => {
      const found = (await registry.invoke('find_items', alice, {
        projects: ['alpha'],
        query: 'Swap',
        include_stale: true,
      })) as { freshness_warnings: Warning[] };
      const byId = new Map(found.freshness_warnings.map((w) => [w.id, w]));
      return ids.map((id) => byId.get(id)?.reason ?? 'none');
    };
    // Inside, the bytes differ from the digest: changed.
    expect(await warnings()).toEqual(['source_changed', 'source_changed']);

    unlinkSync(join(root, 'swap', 'file.md'));
    symlinkSync(join(outside, 'secret.txt'), join(root, 'swap', 'file.md'));
    renameSync(join(root, 'swap', 'dir'), join(root, 'swap', 'dir-was'));
    symlinkSync(outside, join(root, 'swap', 'dir'));
    expect(await warnings()).toEqual(['source_outside_root', 'source_outside_root']);
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

  it('remember of an outside path is a 400 naming source_uri, alike whether it exists; find answers the fixed verdict', async () => {
    const [, exists, missing] = attacks()[0]!;
    const ask = (uri: string) =>
      call(server.url, 'POST', '/memory/remember', {
        token: aliceSecret,
        body: {
          project: 'alpha',
          text: 'Over HTTP',
          type: 'fact',
          source_uri: uri,
          source_sha256: DIGEST,
        },
      });
    const before = await headSeq(registry, 'alpha');
    const a = await ask(exists);
    const b = await ask(missing);
    expect(a.status).toBe(400);
    expect(a.body.error).toMatchObject({ code: 'INVALID_INPUT', details: { field: 'source_uri' } });
    // Only the path it echoes differs (stop 32: the message names the path and the rule).
    expect(a.body.error.message).toBe(
      `source_uri: ${exists}: absolute path outside the data root (cite a path relative to it)`,
    );
    expect(echoing(b.body.error, missing)).toEqual(echoing(a.body.error, exists));
    expect(await headSeq(registry, 'alpha')).toBe(before);

    const { first_seq } = await registry.context.engine.append(
      'alpha',
      [exists, missing].map((uri, i) => ({
        type: 'item_added',
        item_type: 'fact',
        summary: `Httplegacy ${i}`,
        source_uri: uri,
        source_sha256: DIGEST,
      })),
      { kind: 'cli' },
    );
    const found = await call(server.url, 'POST', '/memory/items/find', {
      token: aliceSecret,
      body: { projects: ['alpha'], query: 'Httplegacy' },
    });
    expect(found.status).toBe(200);
    expect(found.body.items).toEqual([]);
    const byId = new Map(
      (found.body.freshness_warnings as Warning[]).map((w) => [w.id, verdict(w)]),
    );
    expect(byId.get(itemId('alpha', first_seq))).toEqual(OUTSIDE);
    expect(byId.get(itemId('alpha', first_seq + 1))).toEqual(byId.get(itemId('alpha', first_seq)));
  });
});

const PROMOTED = 'The deploy script pins node 20';

function zip<A, B>(a: readonly A[], b: readonly B[]): [A, B][] {
  return a.map((x, i) => [x, b[i]!]);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
