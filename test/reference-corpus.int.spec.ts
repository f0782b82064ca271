import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memInProcess, memProcess } from './support/mem-cli.js';

/*
 * Issue 14 §2: a real documentation tree (commander's README and picomatch's, shipped in
 * node_modules) read as a reference corpus through `mem ref add|sync|list|rm`: R passages on
 * heading boundaries, opt-in recall, one live version per changed file, none for a removed one,
 * untrusted files skipped and reported, and a rebuild that `mem verify` finds byte-identical.
 */
const repo = join(import.meta.dirname, '..');
let root: string;
let docs: string;
let outside: string;

const mem = (...args: string[]) => memInProcess(['--root', root, ...args], { cwd: root });

async function json<T>(...args: string[]): Promise<T> {
  const run = await mem(...args, '--json');
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as T;
}

interface Sync {
  files: { added: string[]; changed: string[]; removed: string[]; unchanged: string[] };
  skipped: { uri: string; reason: string }[];
  passages_written: number;
  passages_tombstoned: number;
  seq: number | null;
}
interface Hit {
  level: string;
  text: string;
  sha256: string;
}
interface Answer {
  results: Hit[];
  abstained: boolean;
}

/** Every file under the vault, path → bytes: what a rebuild must reproduce exactly. */
function vaultFiles(): Map<string, string> {
  const dir = join(root, 'vault');
  const out = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      out.set(relative(dir, path), readFileSync(path, 'utf8'));
    }
  return out;
}

function logLines(): string[] {
  return readFileSync(join(root, 'log', 'demo', '000001.jsonl'), 'utf8')
    .trim()
    .split('\n');
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'mem-ref-'));
  docs = join(root, 'docs-tree');
  outside = mkdtempSync(join(tmpdir(), 'mem-ref-outside-'));
  mkdirSync(join(docs, 'docs'), { recursive: true });
  cpSync(join(repo, 'node_modules', 'commander', 'Readme.md'), join(docs, 'README.md'));
  cpSync(join(repo, 'node_modules', 'picomatch', 'README.md'), join(docs, 'docs', 'picomatch.md'));
  writeFileSync(join(docs, 'docs', 'notes.txt'), 'The zanzibar flag enables quokka mode.\n');
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

describe('mem ref add | sync | list | rm over a real documentation tree', () => {
  it('reads heading passages that only --levels R recalls, and a second sync writes nothing', async () => {
    const added = memProcess([
      '--root',
      root,
      'ref',
      'add',
      docs,
      '--project',
      'demo',
      '--name',
      'cli-docs',
      '--json',
    ]);
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    const report = JSON.parse(added.stdout) as Sync;
    expect(report.files.added).toEqual(['README.md', 'docs/notes.txt', 'docs/picomatch.md']);
    expect(report.passages_written).toBeGreaterThan(40);

    const events = logLines().map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(events[0]).toMatchObject({
      type: 'corpus_registered',
      name: 'cli-docs',
      globs: expect.any(Array),
    });
    const variadic = events.find(
      (e) =>
        e['type'] === 'reference' && (e['heading_path'] as string[]).includes('Variadic option'),
    );
    expect(variadic).toMatchObject({
      level: 'R',
      source: 'README.md',
      corpus: 'cli-docs',
      heading_path: ['Commander.js', 'Options', 'Variadic option'],
    });
    expect(variadic!['text']).toMatch(/^### Variadic option/);

    const recalled = await json<Answer>(
      'query',
      'variadic option',
      '--project',
      'demo',
      '--levels',
      'R',
    );
    expect(recalled.abstained).toBe(false);
    expect(recalled.results[0]).toMatchObject({ level: 'R', sha256: variadic!['sha256'] });
    // Opt-in: the default levels never return reference text.
    const plain = await mem('query', 'variadic option', '--project', 'demo', '--json');
    expect(
      plain.stdout === ''
        ? []
        : (JSON.parse(plain.stdout) as Answer).results.filter((r) => r.level === 'R'),
    ).toEqual([]);

    const before = logLines().length;
    const again = await json<{ corpora: Sync[] }>('ref', 'sync');
    expect(again.corpora[0]).toMatchObject({
      seq: null,
      passages_written: 0,
      passages_tombstoned: 0,
    });
    expect(again.corpora[0]!.files.unchanged).toHaveLength(3);
    expect(logLines()).toHaveLength(before);

    const listed = await json<{ corpora: Record<string, unknown>[] }>('ref', 'list');
    expect(listed.corpora).toEqual([
      expect.objectContaining({
        project: 'demo',
        name: 'cli-docs',
        sources: 3,
        passages: report.passages_written,
      }),
    ]);
  });

  it('a changed file leaves exactly one live version, a removed file none, and a rebuild verifies', async () => {
    await json<Sync>('ref', 'add', docs, '--project', 'demo', '--name', 'cli-docs');
    writeFileSync(join(docs, 'docs', 'notes.txt'), 'The zanzibar flag now enables wombat mode.\n');
    rmSync(join(docs, 'docs', 'picomatch.md'));
    const [synced] = (await json<{ corpora: Sync[] }>('ref', 'sync', '--name', 'cli-docs')).corpora;
    expect(synced!.files).toMatchObject({
      changed: ['docs/notes.txt'],
      removed: ['docs/picomatch.md'],
    });

    const zanzibar = await json<Answer>(
      'query',
      'zanzibar flag',
      '--project',
      'demo',
      '--levels',
      'R',
    );
    expect(zanzibar.results.map((r) => r.text).filter((t) => t.includes('zanzibar'))).toEqual([
      'The zanzibar flag now enables wombat mode.',
    ]);
    const quokka = await mem('query', 'quokka', '--project', 'demo', '--levels', 'R', '--json');
    const quokkas = quokka.stdout === '' ? [] : (JSON.parse(quokka.stdout) as Answer).results;
    expect(quokkas.filter((r) => r.text.includes('quokka'))).toEqual([]);
    const picomatch = await mem(
      'query',
      'picomatch matchBase',
      '--project',
      'demo',
      '--levels',
      'R',
      '--json',
    );
    const hits = picomatch.stdout === '' ? [] : (JSON.parse(picomatch.stdout) as Answer).results;
    expect(hits.filter((h) => /matchBase/.test(h.text))).toEqual([]);
    expect(
      (await json<{ corpora: Record<string, unknown>[] }>('ref', 'list')).corpora[0],
    ).toMatchObject({
      sources: 2,
    });

    expect((await mem('rebuild', '--from-log')).code).toBe(0);
    const verified = await mem('verify', '--project', 'demo');
    expect(verified.stdout + verified.stderr).not.toMatch(/mismatch|drift/i);
    expect(verified.code).toBe(0);

    const removed = await json<{ passages_tombstoned: number }>('ref', 'rm', 'cli-docs');
    expect(removed.passages_tombstoned).toBeGreaterThan(0);
    const gone = await mem(
      'query',
      'variadic option',
      '--project',
      'demo',
      '--levels',
      'R',
      '--json',
    );
    const left = gone.stdout === '' ? [] : (JSON.parse(gone.stdout) as Answer).results;
    expect(left.filter((r) => r.level === 'R')).toEqual([]);
    expect((await json<{ corpora: unknown[] }>('ref', 'list')).corpora).toEqual([]);
  });

  it('writes one vault note per corpus file under reference/<corpus>/, follows changes, and a rebuild reproduces it byte for byte', async () => {
    await json<Sync>('ref', 'add', docs, '--project', 'demo', '--name', 'cli-docs');
    const notes = vaultFiles();
    const readme = notes.get('demo/reference/cli-docs/README.md');
    expect(readme).toMatch(/^---\n/);
    expect(readme).toContain('level: R');
    expect(readme).toContain(
      '%% Commander.js › Options › Variadic option %%\n\n### Variadic option',
    );
    expect(notes.get('demo/reference/cli-docs/docs/notes.txt.md')).toContain('quokka mode');
    expect(notes.has('demo/reference/cli-docs/docs/picomatch.md')).toBe(true);

    writeFileSync(join(docs, 'docs', 'notes.txt'), 'The zanzibar flag now enables wombat mode.\n');
    rmSync(join(docs, 'docs', 'picomatch.md'));
    await json<{ corpora: Sync[] }>('ref', 'sync');
    const after = vaultFiles();
    const note = after.get('demo/reference/cli-docs/docs/notes.txt.md')!;
    expect(note).toContain('wombat mode');
    expect(note).not.toContain('quokka');
    expect(after.has('demo/reference/cli-docs/docs/picomatch.md')).toBe(false);

    expect((await mem('rebuild', '--from-log')).code).toBe(0);
    expect(vaultFiles()).toEqual(after);
  });

  it('skips and reports untrusted files (too large, binary, invalid UTF-8, a symlink out of the root) and scrubs secrets', async () => {
    writeFileSync(join(docs, 'docs', 'huge.md'), `# Huge\n${'x'.repeat(1024 * 1024 + 1)}`);
    writeFileSync(join(docs, 'docs', 'binary.md'), Buffer.from([0x23, 0x20, 0x41, 0x00, 0x42]));
    writeFileSync(join(docs, 'docs', 'latin1.md'), Buffer.from([0x23, 0x20, 0xe9, 0x74, 0xe9]));
    writeFileSync(join(outside, 'secret.md'), '# Private\nnot for the corpus\n');
    symlinkSync(join(outside, 'secret.md'), join(docs, 'docs', 'escape.md'));
    const key = `sk-ant-api03-${'Q'.repeat(93)}AA`;
    appendFileSync(join(docs, 'docs', 'notes.txt'), `export ANTHROPIC_API_KEY=${key}\n`);

    const report = await json<Sync>('ref', 'add', docs, '--project', 'demo', '--name', 'cli-docs');
    expect(report.skipped).toEqual([
      { uri: 'docs/binary.md', reason: 'binary' },
      { uri: 'docs/escape.md', reason: 'symlink_outside_root' },
      { uri: 'docs/huge.md', reason: 'too_large' },
      { uri: 'docs/latin1.md', reason: 'invalid_utf8' },
    ]);
    const log = readFileSync(join(root, 'log', 'demo', '000001.jsonl'), 'utf8');
    expect(log).not.toContain(key);
    expect(log).not.toContain('not for the corpus');
  });

  it('refuses a file whose name or heading holds a control or bidi character, naming it escaped, writing nothing', async () => {
    const evil = 'a\u001b[31mred\u202e.md';
    writeFileSync(join(outside, evil), '# Title\n\nSome passage about Kong buffering bodies.\n');
    const named = await mem('ref', 'add', outside, '--project', 'demo', '--name', 'evil', '--json');
    expect(named.code, named.stderr).toBe(2);
    const error = (
      JSON.parse(named.stderr) as {
        error: { code: string; message: string; details: { file: string; field: string } };
      }
    ).error;
    expect(error).toMatchObject({
      code: 'INVALID_INPUT',
      details: { field: 'source', file: 'a\\x1b[31mred\\u202e.md' },
    });
    expect(error.message).not.toContain('\u001b');
    expect(error.message).not.toContain('\u202e');
    expect(existsSync(join(root, 'log', 'demo'))).toBe(false);
    rmSync(join(outside, evil));
    // A heading is the file's text but stored apart from the verbatim passage: refused the same
    // way, on sync as on add (the corpus registered clean first).
    writeFileSync(join(outside, 'ok.md'), '# Title\n\nSome passage about Kong buffering bodies.\n');
    await json<Sync>('ref', 'add', outside, '--project', 'demo', '--name', 'later');
    const before = logLines().length;
    writeFileSync(
      join(outside, 'ok.md'),
      '# Title \u202e here\n\nAnother passage about proxy body size.\n',
    );
    const heading = await mem('ref', 'sync', '--name', 'later', '--json');
    expect(heading.code, heading.stderr).toBe(2);
    expect(JSON.parse(heading.stderr)).toMatchObject({
      error: { code: 'INVALID_INPUT', details: { field: 'heading_path[0]', file: 'ok.md' } },
    });
    expect(logLines()).toHaveLength(before);
  });

  it('refuses bad input with a typed error and writes nothing', async () => {
    const missing = await mem(
      'ref',
      'add',
      join(root, 'nope'),
      '--project',
      'demo',
      '--name',
      'x',
      '--json',
    );
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('NOT_FOUND');
    const badName = await mem(
      'ref',
      'add',
      docs,
      '--project',
      'demo',
      '--name',
      'Bad Name',
      '--json',
    );
    expect(badName.code).toBe(2);
    expect(badName.stderr).toContain('INVALID_INPUT');
    const unknown = await mem('ref', 'rm', 'nothing', '--json');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('NOT_FOUND');
    // An empty file (or one of blank lines) holds no passage: it registered a corpus of 0
    // passages and said so as a success (stop-29 walk). Refused, and nothing is written.
    writeFileSync(join(outside, 'empty.md'), '');
    writeFileSync(join(outside, 'blank.md'), '\n  \n');
    for (const file of ['empty.md', 'blank.md']) {
      const empty = await mem(
        'ref',
        'add',
        join(outside, file),
        '--project',
        'demo',
        '--name',
        'empty',
        '--json',
      );
      expect(empty.code, empty.stderr).toBe(2);
      expect(JSON.parse(empty.stderr).error).toMatchObject({
        code: 'INVALID_INPUT',
        details: { field: 'path', files: [file] },
      });
      expect(existsSync(join(root, 'log', 'demo'))).toBe(false);
    }
    await json<Sync>('ref', 'add', docs, '--project', 'demo', '--name', 'cli-docs');
    const before = logLines().length;
    const clash = await mem(
      'ref',
      'add',
      join(docs, 'docs'),
      '--project',
      'demo',
      '--name',
      'cli-docs',
      '--json',
    );
    expect(clash.code).toBe(1);
    expect(clash.stderr).toContain('CONFLICT');
    expect(logLines()).toHaveLength(before);
  });
});
