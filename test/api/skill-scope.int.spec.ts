import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Registry } from '@mem/registry';
import { startServer, type RunningServer } from '@mem/server';
import { call, mint, registryAt, seedIdentity, tempDataRoot } from './support.js';

/*
 * A skill drafted from a project's notes carries that project's knowledge: its scope
 * (`project`, `generated_from`) decides who may load it, and a scope that is missing a
 * project, names one the caller does not reach, or cannot be read at all hides the skill.
 */

const SKILLS: Record<string, string> = {
  everyone: 'description: no scope at all',
  'for-alpha': 'project: alpha',
  'for-alpha-list': 'project: [alpha]',
  'from-alpha': 'generated_from: alpha/infra-root-causes',
  'from-alpha-bare': 'generated_from: alpha',
  'for-beta': 'project: beta',
  'for-beta-list': 'project: [beta]',
  'from-beta': 'generated_from: beta',
  'from-beta-path': 'generated_from: beta/infra-root-causes',
  'for-both': 'project: [alpha, beta]',
  'alpha-from-beta': 'project: alpha\ngenerated_from: beta/x',
  'scope-number': 'project: 7',
  'scope-object': 'project: {name: alpha}',
  'scope-empty': "project: ''",
  'scope-empty-list': 'project: []',
  'scope-null': 'project:',
  'scope-bad-name': 'project: Alpha/../beta',
  'scope-mixed-list': 'project: [alpha, 7]',
  'from-number': 'generated_from: 7',
  'from-empty': "generated_from: ''",
  'from-list': 'generated_from: [alpha]',
};

let cleanup: () => void;
let registry: Registry;
let server: RunningServer;
let narrow = '';
let wideAlice = '';
let wideBob = '';

beforeAll(async () => {
  let root: string;
  ({ root, cleanup } = tempDataRoot(['alpha', 'beta']));
  for (const [name, scope] of Object.entries(SKILLS)) {
    mkdirSync(join(root, 'vault', 'skills', name), { recursive: true });
    writeFileSync(
      join(root, 'vault', 'skills', name, 'SKILL.md'),
      `---\nname: ${name}\n${scope}\n---\nHow to ${name}.\n`,
    );
  }
  registry = await registryAt(root, { runJobs: false });
  await seedIdentity(registry, { alice: ['alpha', 'beta'], bob: ['beta'] });
  narrow = (await mint(registry, { principal: 'alice', projects: ['alpha'], label: 'alpha-only' }))
    .secret;
  wideAlice = (await mint(registry, { principal: 'alice', label: 'alice-all' })).secret;
  wideBob = (await mint(registry, { principal: 'bob', label: 'bob-all' })).secret;
  server = await startServer(registry, { port: 0, rateLimits: { burstPerSecond: 0 } });
});

afterAll(async () => {
  await server?.close();
  await registry?.close();
  cleanup?.();
});

async function listed(token: string): Promise<string[]> {
  const answer = await call(server.url, 'GET', '/memory/skills', { token });
  expect(answer.status).toBe(200);
  return answer.body.map((s: { name: string }) => s.name);
}

const MALFORMED = Object.keys(SKILLS).filter(
  (name) => name.startsWith('scope-') || (name.startsWith('from-') && !/alpha|beta/.test(name)),
);

describe('skill scope fails closed', () => {
  it('an alpha-only token sees unscoped and alpha skills only: never beta, both, or a malformed scope', async () => {
    expect(await listed(narrow)).toEqual([
      'everyone',
      'for-alpha',
      'for-alpha-list',
      'from-alpha',
      'from-alpha-bare',
    ]);
  });

  it('a * token sees the skills of every project its principal is a member of, and still no malformed scope', async () => {
    expect(await listed(wideAlice)).toEqual([
      'alpha-from-beta',
      'everyone',
      'for-alpha',
      'for-alpha-list',
      'for-beta',
      'for-beta-list',
      'for-both',
      'from-alpha',
      'from-alpha-bare',
      'from-beta',
      'from-beta-path',
    ]);
    expect(await listed(wideBob)).toEqual([
      'everyone',
      'for-beta',
      'for-beta-list',
      'from-beta',
      'from-beta-path',
    ]);
    for (const name of MALFORMED) expect(await listed(wideAlice)).not.toContain(name);
  });

  it('GET /memory/skills/{name} of an invisible skill is the 404 of an unknown one', async () => {
    const unknown = await call(server.url, 'GET', '/memory/skills/no-such-skill', {
      token: narrow,
    });
    expect(unknown.status).toBe(404);
    for (const name of [
      'for-beta',
      'for-beta-list',
      'from-beta',
      'for-both',
      'scope-number',
      'scope-object',
    ]) {
      const answer = await call(server.url, 'GET', `/memory/skills/${name}`, { token: narrow });
      expect(answer.status, name).toBe(404);
      expect(JSON.stringify(answer.body).replaceAll(name, 'no-such-skill')).toBe(
        JSON.stringify(unknown.body),
      );
    }
    expect(
      (await call(server.url, 'GET', '/memory/skills/for-alpha', { token: narrow })).body,
    ).toMatchObject({ name: 'for-alpha', body: 'How to for-alpha.\n' });
  });
});
