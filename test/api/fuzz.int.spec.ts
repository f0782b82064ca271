import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_PROJECT } from '@mem/core';
import type { Registry } from '@mem/registry';
import type { RunningServer } from '@mem/server';
import { call, mint, servedRegistry } from './support.js';

/*
 * Hostile input, generated: malformed JSON, wrong types, unknown fields, oversized bodies and
 * odd query strings always get a 4xx (or a 2xx for a harmless read), never a 500, and nothing
 * is ever written.
 */

let closeServed: () => Promise<void>;
let registry: Registry;
let server: RunningServer;
let member = '';
let admin = '';

async function heads(): Promise<number[]> {
  return Promise.all(
    [SYSTEM_PROJECT, 'alpha', 'beta'].map(async (p) => (await registry.context.engine.head(p)).seq),
  );
}

beforeAll(async () => {
  ({
    registry,
    server,
    close: closeServed,
  } = await servedRegistry(
    ['alpha', 'beta'],
    { alice: ['alpha'] },
    { bodyLimits: { ingest: 64 * 1024, other: 8 * 1024 } },
  ));
  member = (await mint(registry, { principal: 'alice' })).secret;
  admin = (await mint(registry, { principal: 'alice', capabilities: ['admin'] })).secret;
});

afterAll(() => closeServed?.());

const WRITES = [
  '/memory/ingest',
  '/memory/tokens',
  '/memory/principals',
  '/memory/projects',
  '/memory/projects/alpha/members',
];

/** A body that is not a valid request: random JSON, broken JSON, or a near-miss of a real one. */
const badBody = fc.oneof(
  fc.json().map((text) => ({ raw: text })),
  fc.string().map((text) => ({ raw: `{${text}` })),
  fc
    .dictionary(fc.string({ maxLength: 12 }), fc.jsonValue())
    .map((object) => ({ raw: JSON.stringify({ ...object, not_a_field: true }) })),
  fc
    .record({
      project: fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
      source: fc.jsonValue(),
      records: fc.jsonValue(),
    })
    .map((o) => ({ raw: JSON.stringify(o) })),
  fc.nat({ max: 200_000 }).map((n) => ({
    raw: JSON.stringify({
      project: 'alpha',
      source: 'a:b',
      records: [{ role: 'user', text: 'x'.repeat(n + 70_000) }],
    }),
  })),
);

describe('hostile input', () => {
  it('bad bodies on every write route: a 4xx, never a 500, nothing written', async () => {
    const before = await heads();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...WRITES),
        badBody,
        fc.constantFrom('application/json', 'text/plain', 'application/json; charset=utf-8'),
        async (path, body, type) => {
          const answer = await call(server.url, 'POST', path, {
            token: admin,
            raw: body.raw,
            headers: { 'content-type': type },
          });
          expect(answer.status, `${path} ${body.raw.slice(0, 80)}`).toBeGreaterThanOrEqual(400);
          expect(answer.status).toBeLessThan(500);
          expect(answer.body.error.code).toMatch(
            /^(INVALID_INPUT|PAYLOAD_TOO_LARGE|INVALID_PROJECT|NOT_FOUND|CONFLICT)$/,
          );
        },
      ),
      { numRuns: 150 },
    );
    expect(await heads()).toEqual(before);
  });

  it('hostile query strings: FTS syntax, SQL, control characters, huge values, repeated and unknown keys', async () => {
    const hostile = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.constantFrom(
        '" OR 1=1 --',
        'NEAR(a b)',
        'a* OR b:*',
        '"unterminated',
        '\u0000\u0001\u0002',
        "'; DROP TABLE node; --",
        '%',
        '%%',
        '%ZZ',
        '*',
        '(((((',
        'x'.repeat(5000),
      ),
    );
    const before = await heads();
    await fc.assert(
      fc.asyncProperty(
        hostile,
        fc.array(
          fc.tuple(fc.constantFrom('query', 'project', 'level', 'limit', 'x', 'query'), hostile),
          { maxLength: 4 },
        ),
        async (text, extra) => {
          const params = new URLSearchParams({ query: text });
          for (const [key, value] of extra) params.append(key, value);
          const answer = await call(server.url, 'GET', `/memory/query?${params.toString()}`, {
            token: member,
          });
          expect([200, 204, 400, 403]).toContain(answer.status);
          if (answer.status >= 400)
            expect(answer.body.error.code).toMatch(/^(INVALID_INPUT|INVALID_PROJECT|FORBIDDEN)$/);
        },
      ),
      { numRuns: 200 },
    );
    const raw = await fetch(`${server.url}/memory/query?query=%E0%A4%A&limit=%`, {
      headers: { apikey: member },
    });
    expect(raw.status).toBeLessThan(500);
    expect(await heads()).toEqual(before);
  });
});
