import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Registry } from '@mem/registry';
import { startServer, type RunningServer } from '@mem/server';
import { call, memoryPayloads, mint, registryAt, seedIdentity, tempDataRoot } from './support.js';

/*
 * Frontmatter is YAML, and only the plain kind: a note or SKILL.md whose frontmatter opens with
 * another language (gray-matter would eval `---js`), or whose YAML builds something other than
 * plain data, is never run or served. The other notes still are; a refused note is named.
 */

let root: string;
let cleanup: () => void;
let registry: Registry;
let server: RunningServer;
let token = '';

const marker = (name: string) => join(root, `pwned-${name}.txt`);
const js = (name: string) => `{ t: require("child_process").execSync("id > ${marker(name)}") }`;

/** Vault-relative note paths → text, planted beside the notes the projector wrote. */
function planted(): Record<string, string> {
  return {
    'alpha/js.md': `---js\n${js('js')}\n---\nbody\n`,
    'alpha/javascript.md': `---javascript\n${js('javascript')}\n---\nbody\n`,
    'alpha/spaced.md': `--- javascript \n${js('spaced')}\n---\nbody\n`,
    'alpha/upper.md': `---JS\r\n${js('upper')}\r\n---\r\nbody\n`,
    'alpha/coffee.md': `---coffee\nt: require("child_process").execSync("id > ${marker('coffee')}")\n---\nbody\n`,
    'alpha/toml.md': '---toml\nproject = "alpha"\nlevel = "L1"\n---\nbody\n',
    'alpha/json.md': '---json\n{"project": "alpha", "level": "L1"}\n---\nbody\n',
    'alpha/function.md': `---\nproject: alpha\nlevel: L1\nt: !!js/function "function () { require('child_process').execSync('id > ${marker('function')}') }"\n---\nbody\n`,
    'alpha/binary.md': '---\nproject: alpha\nlevel: L1\nblob: !!binary aGVsbG8=\n---\nbody\n',
    'alpha/aliases.md':
      '---\nproject: alpha\nlevel: L1\na: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n---\nbody\n',
    'alpha/cycle.md': '---\nproject: alpha\nlevel: L1\nloop: &l [*l]\n---\nbody\n',
    'alpha/proto.md': '---\nproject: alpha\nlevel: L1\n__proto__: {polluted: yes}\n---\nbody\n',
  };
}

beforeAll(async () => {
  ({ root, cleanup } = tempDataRoot(['alpha']));
  registry = await registryAt(root, { runJobs: false });
  await seedIdentity(registry, { alice: ['alpha'] });
  token = (await mint(registry, { principal: 'alice', label: 'laptop' })).secret;
  const content = memoryPayloads(
    'run-a',
    'Uploads over 10KB failed because the gateway buffered 8KB bodies.',
    'Gateway body buffer of 8KB broke uploads; raised it.',
  );
  await registry.context.engine.append('alpha', content.payloads, { kind: 'test' });
  for (const [path, text] of Object.entries(planted()))
    writeFileSync(join(root, 'vault', path), text);
  const skills: Record<string, string> = {
    good: '---\nname: good\ndescription: buffer sizes\n---\nRaise it.\n',
    evil: `---js\n${js('skill')}\n---\nRun me.\n`,
    'evil-yaml': `---\nname: evil-yaml\nt: !!js/function "function () { require('child_process').execSync('id > ${marker('skill-yaml')}') }"\n---\nRun me.\n`,
  };
  for (const [name, text] of Object.entries(skills)) {
    mkdirSync(join(root, 'vault', 'skills', name), { recursive: true });
    writeFileSync(join(root, 'vault', 'skills', name, 'SKILL.md'), text);
  }
  server = await startServer(registry, { port: 0, rateLimits: { burstPerSecond: 0 } });
});

afterAll(async () => {
  await server?.close();
  await registry?.close();
  cleanup?.();
});

const MARKERS = [
  'js',
  'javascript',
  'spaced',
  'upper',
  'coffee',
  'function',
  'skill',
  'skill-yaml',
];

describe('vault frontmatter is plain YAML only', () => {
  it('GET notes runs nothing, serves the projector notes, and names every refused note with a typed error', async () => {
    const answer = await call(server.url, 'GET', '/memory/projects/alpha/notes', { token });
    for (const name of MARKERS) expect(existsSync(marker(name)), name).toBe(false);
    expect(answer.status).toBe(200);
    expect(answer.body.notes.map((n: { path: string }) => n.path)).toEqual([
      'alpha/bugs.md',
      'alpha/index.md',
    ]);
    const refused = answer.body.refused as { path: string; code: string; message: string }[];
    expect(refused.map((r) => r.path)).toEqual(Object.keys(planted()).sort());
    for (const entry of refused) {
      expect(entry.code, entry.path).toBe('FRONTMATTER_REFUSED');
      expect(entry.message, entry.path).toContain(entry.path);
    }
    expect(refused.find((r) => r.path === 'alpha/js.md')!.message).toMatch(/"js"/);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('GET skills runs nothing and lists the plain-YAML skills only; the refused ones cannot be fetched', async () => {
    const list = await call(server.url, 'GET', '/memory/skills', { token });
    const evil = await call(server.url, 'GET', '/memory/skills/evil', { token });
    for (const name of MARKERS) expect(existsSync(marker(name)), name).toBe(false);
    expect(list.status).toBe(200);
    expect(list.body.map((s: { name: string }) => s.name)).toEqual(['good']);
    expect(evil.status).toBe(404);
  });
});
