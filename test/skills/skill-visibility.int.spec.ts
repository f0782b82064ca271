import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Registry } from '@mem/registry';
import type { RunningServer } from '@mem/server';
import {
  asRoot,
  call,
  memoryPayloads,
  mint,
  registryAt,
  seedIdentity,
  serveUnlimited,
  tempDataRoot,
} from '../api/support.js';

/*
 * A promoted skill names the memory it was drawn from (`generated_from`: a bare content sha) and
 * its project beside it. Over real HTTP, a member of that project loads it; a member of another
 * project sees neither it nor its name.
 */

let root = '';
let cleanup: () => void;
let registry: Registry;
let server: RunningServer;
const tokens: Record<string, string> = {};
const LOADABLE = join('vault', 'skills', 'upload-bugs', 'SKILL.md');

beforeAll(async () => {
  ({ root, cleanup } = tempDataRoot(['alpha', 'beta']));
  registry = await registryAt(root, { runJobs: false });
  await seedIdentity(registry, { alice: ['alpha'], bob: ['beta'] });
  tokens['alice'] = (await mint(registry, { principal: 'alice' })).secret;
  tokens['bob'] = (await mint(registry, { principal: 'bob' })).secret;
  await registry.context.engine.append(
    'alpha',
    memoryPayloads(
      'run-a',
      'Uploads failed: 8KB body buffer.',
      'Uploads failed because of the 8KB body buffer.\nFixed by raising the buffer to 16KB.',
    ).payloads,
    { kind: 'test' },
  );
  await asRoot(registry, 'skill_draft', {
    from: 'alpha/bugs',
    name: 'upload-bugs',
    composer: 'heuristic',
  });
  await asRoot(registry, 'skill_promote', {
    project: 'alpha',
    name: 'upload-bugs',
    reason: 'works',
  });
  server = await serveUnlimited(registry);
});

afterAll(async () => {
  await server?.close();
  await registry?.close();
  cleanup?.();
});

describe('a promoted skill over HTTP', () => {
  it('names its memory by sha and its project beside it', () => {
    expect(readFileSync(join(root, LOADABLE), 'utf8')).toMatch(
      /\ngenerated_from: "[0-9a-f]{64}"\nproject: "alpha"\n/,
    );
  });

  it('is listed and served to a member of its project', async () => {
    const list = await call(server.url, 'GET', '/memory/skills', { token: tokens['alice']! });
    expect(list.status).toBe(200);
    expect(list.body.map((s: { name: string }) => s.name)).toEqual(['upload-bugs']);
    const one = await call(server.url, 'GET', '/memory/skills/upload-bugs', {
      token: tokens['alice']!,
    });
    expect(one.status).toBe(200);
    expect(one.body.name).toBe('upload-bugs');
  });

  it('is neither listed nor served to a member of another project', async () => {
    const list = await call(server.url, 'GET', '/memory/skills', { token: tokens['bob']! });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([]);
    const one = await call(server.url, 'GET', '/memory/skills/upload-bugs', {
      token: tokens['bob']!,
    });
    expect(one.status).toBe(404);
    expect(one.body.error.code).toBe('NOT_FOUND');
  });
});

describe('a running server and the skills it matches', () => {
  const contextSkills = async () => {
    const res = await call(server.url, 'POST', '/memory/context', {
      token: tokens['alice']!,
      body: { tool: 'uploads', task: 'upload bugs body buffer', project: 'alpha' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body.skills as { name: string }[]).map((s) => s.name);
  };

  it('sees a skill promoted, and a skill retired, while it runs, on the next context request', async () => {
    expect(await contextSkills()).toEqual(['upload-bugs']);
    expect(await contextSkills()).toEqual(['upload-bugs']);
    await asRoot(registry, 'skill_draft', {
      from: 'alpha/bugs',
      name: 'upload-buffers',
      composer: 'heuristic',
    });
    await asRoot(registry, 'skill_promote', {
      project: 'alpha',
      name: 'upload-buffers',
      reason: 'works too',
    });
    expect((await contextSkills()).sort()).toEqual(['upload-buffers', 'upload-bugs']);
    await asRoot(registry, 'skill_retire', {
      project: 'alpha',
      name: 'upload-bugs',
      reason: 'folded into upload-buffers',
    });
    expect(await contextSkills()).toEqual(['upload-buffers']);
  });
});
