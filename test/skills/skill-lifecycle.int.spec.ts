import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memInProcess } from '../support/mem-cli.js';
import { asRoot, registryAt } from '../api/support.js';

/*
 * Issue 14 §1: a skill drafted from a memory note lands in `_drafts/` (never loaded), a person
 * promotes it into `vault/skills/`, where `GET /memory/skills` finds it, and retires it out
 * again. Every file is a projection of the log: a rebuild writes the same bytes, and a
 * hand-placed SKILL.md beside them is never touched.
 */

const repo = join(import.meta.dirname, '..', '..');
let root = '';
const DRAFT = 'vault/skills/_drafts/theme-crashes/SKILL.md';
const LOADABLE = 'vault/skills/theme-crashes/SKILL.md';
const HAND = 'vault/skills/hand-made/SKILL.md';
const HAND_TEXT = '---\nname: hand-made\ndescription: written by a person\n---\nDo it by hand.\n';

const mem = (...args: string[]) => memInProcess(['--root', root, ...args]);
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const logBytes = () => readFileSync(join(root, 'log', 'demo', '000001.jsonl'), 'utf8');

async function listed(): Promise<string[]> {
  const registry = await registryAt(root, { runJobs: false });
  try {
    const skills = (await asRoot(registry, 'skill_list', {})) as { name: string }[];
    return skills.map((s) => s.name);
  } finally {
    await registry.close();
  }
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'mem-skills-'));
  cpSync(join(repo, 'log', 'demo'), join(root, 'log', 'demo'), { recursive: true });
  mkdirSync(join(root, 'vault', 'skills', 'hand-made'), { recursive: true });
  writeFileSync(join(root, HAND), HAND_TEXT);
  expect((await mem('rebuild', '--from-log')).code).toBe(0);
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('mem skill draft / promote / retire', () => {
  it('drafts from the live lines only: forgotten left out, superseded shown as the successor', async () => {
    expect(
      (
        await mem(
          'forget',
          'User reports: scrolling back in xterm.js still does not work (maybe because outer web catches it)?',
          '--project',
          'demo',
          '--reason',
          'boast',
        )
      ).code,
    ).toBe(0);
    const superseded = await mem(
      'supersede',
      'Compile errors for missing AnnotationMessageRef: Expected during incremental editing. Fixed by creating the module file.',
      '--by',
      'Compile errors for missing AnnotationMessageRef: fixed by creating the module file before compiling',
      '--project',
      'demo',
      '--reason',
      'the real cause',
    );
    expect(superseded.code, superseded.stderr).toBe(0);
    const drafted = await mem(
      'skill',
      'draft',
      '--from',
      'demo/bugs-and-root-causes',
      '--name',
      'theme-crashes',
    );
    expect(drafted.code, drafted.stderr).toBe(0);
    const text = read(DRAFT);
    expect(text).toMatch(
      /^---\nname: "theme-crashes"\ndescription: ".+"\nwhen_to_use: ".+"\ngenerated_from: "[0-9a-f]{64}"\nproject: "demo"\n---\n/,
    );
    expect(text).toContain('## Steps');
    // When to use it: the failures the note's lines fix, not the standing query's title.
    const when = /^when_to_use: (".+")$/m.exec(text)![1]!;
    expect(JSON.parse(when)).toMatch(/^When one of these shows up in demo: /);
    expect(when).toContain('LiveView test: sandbox isolation (Project not found)');
    expect(when).not.toMatch(/bugs and root causes/i);
    expect(text).toContain('fixed by creating the module file before compiling');
    expect(text).not.toContain('scrolling back in xterm.js');
    expect(text).not.toContain('Expected during incremental editing');
    expect(existsSync(join(root, LOADABLE))).toBe(false);
  });

  it('never lists a draft as loadable', async () => {
    expect(await listed()).toEqual(['hand-made']);
  });

  it('refuses a name that is not a slug, and one a hand-placed skill holds, writing nothing', async () => {
    const before = logBytes();
    for (const name of ['../escape', '_drafts', 'Theme', 'a/b']) {
      const run = await mem(
        'skill',
        'draft',
        '--from',
        'demo/bugs-and-root-causes',
        '--name',
        name,
      );
      expect(run.code, name).toBe(2);
      expect(run.stderr).toContain('INVALID_INPUT');
    }
    const taken = await mem(
      'skill',
      'draft',
      '--from',
      'demo/bugs-and-root-causes',
      '--name',
      'hand-made',
    );
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('CONFLICT');
    const missing = await mem('skill', 'draft', '--from', 'demo/no-such-note');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('NOT_FOUND');
    expect(logBytes()).toBe(before);
    expect(read(HAND)).toBe(HAND_TEXT);
  });

  it('a second draft of a name replaces the first', async () => {
    const first = read(DRAFT);
    const again = await mem(
      'skill',
      'draft',
      '--from',
      'demo/architecture-decisions',
      '--name',
      'theme-crashes',
    );
    expect(again.code, again.stderr).toBe(0);
    expect(read(DRAFT)).not.toBe(first);
    expect(read(DRAFT)).toContain('Architecture decisions');
  });

  it('promotes the latest draft into the loadable directory with promoted_at, and lists it', async () => {
    const draft = read(DRAFT);
    expect((await mem('skill', 'promote', 'theme-crashes', '--project', 'demo')).code).toBe(2); // no reason
    const promoted = await mem(
      'skill',
      'promote',
      'theme-crashes',
      '--project',
      'demo',
      '--reason',
      'reviewed',
    );
    expect(promoted.code, promoted.stderr).toBe(0);
    expect(existsSync(join(root, DRAFT))).toBe(false);
    const loadable = read(LOADABLE);
    expect(loadable).toMatch(/\nproject: "demo"\npromoted_at: "\d{4}-\d\d-\d\dT[^"]+"\n---\n/);
    expect(loadable.replace(/\npromoted_at: "[^"]+"/, '')).toBe(draft);
    expect(await listed()).toEqual(['hand-made', 'theme-crashes']);
    const event = logBytes()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .at(-1);
    expect(event).toMatchObject({
      type: 'skill_promoted',
      name: 'theme-crashes',
      reason: 'reviewed',
    });
  });

  it('is a projection: a rebuild writes the same bytes and leaves the hand-placed skill alone', async () => {
    const loadable = read(LOADABLE);
    rmSync(join(root, LOADABLE));
    expect((await mem('rebuild', '--from-log')).code).toBe(0);
    expect(read(LOADABLE)).toBe(loadable);
    expect(read(HAND)).toBe(HAND_TEXT);
    const verify = await mem('verify', '--project', 'demo');
    expect(verify.code, verify.stdout + verify.stderr).toBe(0);
  });

  it('retires: the skill leaves the loadable directory and the list; a second retire is NOT_FOUND', async () => {
    const retired = await mem(
      'skill',
      'retire',
      'theme-crashes',
      '--project',
      'demo',
      '--reason',
      'obsolete',
    );
    expect(retired.code, retired.stderr).toBe(0);
    expect(existsSync(join(root, LOADABLE))).toBe(false);
    expect(read(HAND)).toBe(HAND_TEXT);
    expect(await listed()).toEqual(['hand-made']);
    const again = await mem(
      'skill',
      'retire',
      'theme-crashes',
      '--project',
      'demo',
      '--reason',
      'x',
    );
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('NOT_FOUND');
  });
});
