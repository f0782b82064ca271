import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_PROJECT } from '@mem/core';
import type { Registry } from '@mem/registry';
import type { RunningServer } from '@mem/server';
import { call, mint, servedRegistry } from './support.js';

/*
 * Keys that are names on Object.prototype (`__proto__`, `constructor`, `toString`) are fields
 * like any other: unknown ones are refused by name, never "given twice", and none of them can
 * reach a prototype — of the merged input, or of every object in the process.
 */

let closeServed: () => Promise<void>;
let registry: Registry;
let server: RunningServer;
let token = '';

beforeAll(async () => {
  ({
    registry,
    server,
    close: closeServed,
  } = await servedRegistry(['alpha', 'beta'], { alice: ['alpha'], bob: ['beta'] }));
  token = (await mint(registry, { principal: 'alice', label: 'laptop' })).secret;
});

afterAll(() => closeServed?.());

async function heads(): Promise<number[]> {
  return Promise.all(
    [SYSTEM_PROJECT, 'alpha', 'beta'].map(async (p) => (await registry.context.engine.head(p)).seq),
  );
}

const INGEST = {
  project: 'alpha',
  source: 'agent:keys',
  records: [{ role: 'user', text: 'the build failed on a missing lockfile' }],
};

describe('prototype-named keys in a query string or a body', () => {
  for (const key of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
    it(`?${key}=x is an unknown field named as such, not "given twice"`, async () => {
      const answer = await call(server.url, 'GET', `/memory/query?query=lockfile&${key}=x`, {
        token,
      });
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe('INVALID_INPUT');
      expect(answer.body.error.message).not.toMatch(/given twice/);
      expect(answer.body.error.details.field).toBe(key);
      expect(answer.body.error.details.expected).toMatch(/^only the fields query, project, /);
    });
  }

  for (const key of ['constructor', 'toString', '__proto__']) {
    it(`a body field ${key} is an unknown field named as such, and nothing is appended`, async () => {
      const before = await heads();
      const raw = `{"project":"alpha","source":"agent:keys","records":[{"role":"user","text":"x"}],${JSON.stringify(key)}:{"project":"beta"}}`;
      const answer = await call(server.url, 'POST', '/memory/ingest', {
        token,
        raw,
        headers: { 'content-type': 'application/json' },
      });
      expect(answer.status).toBe(400);
      expect(answer.body.error.message).not.toMatch(/given twice/);
      expect(answer.body.error).toMatchObject({
        code: 'INVALID_INPUT',
        details: { field: key, expected: expect.stringMatching(/^only the fields project, /) },
      });
      expect(await heads()).toEqual(before);
    });
  }

  it('a body __proto__ cannot supply missing fields through the prototype, nor pollute Object.prototype', async () => {
    const before = await heads();
    const raw =
      '{"__proto__":{"project":"alpha","source":"agent:keys","records":[{"role":"user","text":"inherited"}],"polluted":"yes"}}';
    const answer = await call(server.url, 'POST', '/memory/ingest', {
      token,
      raw,
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('INVALID_INPUT');
    expect(answer.body.error.message).not.toMatch(/given twice/);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(await heads()).toEqual(before);
  });

  it('a real field still works beside them, and is refused only when it really is given twice', async () => {
    const accepted = await call(server.url, 'POST', '/memory/ingest', { token, body: INGEST });
    expect(accepted.status).toBe(202);
    const twice = await call(server.url, 'POST', '/memory/ingest?project=alpha', {
      token,
      body: INGEST,
    });
    expect(twice.status).toBe(400);
    expect(twice.body.error).toMatchObject({
      code: 'INVALID_INPUT',
      details: { field: 'project' },
    });
    expect(twice.body.error.message).toMatch(/given twice/);
  });
});

describe('a write given the names a read returns', () => {
  it('POST /memory/remember with summary and source is a 400 listing its fields and the names to use, and writes nothing', async () => {
    const before = await heads();
    const answer = await call(server.url, 'POST', '/memory/remember', {
      token,
      body: {
        project: 'alpha',
        type: 'fact',
        summary: 'Deploys go out on Tuesdays',
        source: 'docs/deploy.md',
      },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({
      code: 'INVALID_INPUT',
      details: { field: 'summary' },
    });
    const expected = answer.body.error.details.expected as string;
    expect(expected).toMatch(/^only the fields project, text, /);
    expect(expected).toContain('source_uri');
    expect(expected).toContain('(summary is text here; source is source_uri here)');
    expect(answer.body.error.message).toContain(expected);
    expect(await heads()).toEqual(before);
  });

  it('every write route refuses an unknown field the same way: POST /memory/items names summary, not text', async () => {
    const answer = await call(server.url, 'POST', '/memory/items', {
      token,
      body: { project: 'alpha', items: [{ type: 'fact', text: 'Deploys go out on Tuesdays' }] },
    });
    expect(answer.status).toBe(400);
    // summary is missing too (the first issue); the unknown field is among the issues.
    expect(answer.body.error.details.issues).toContainEqual(
      expect.objectContaining({
        field: 'items[0].text',
        expected: expect.stringMatching(
          /^only the fields type, summary, .*\(text is summary here\)$/,
        ),
      }),
    );
  });
});
