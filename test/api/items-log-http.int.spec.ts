import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Registry } from '@mem/registry';
import type { RunningServer } from '@mem/server';
import { asRoot, call, headSeq, mint, servedRegistry } from './support.js';

/*
 * Seed 000 §6 `add_log` over real HTTP on loopback: POST /memory/items/{id}/log appends a
 * history entry (GET /memory/history lists it with the token's label), moves the thread's
 * activity in GET /memory/orientation and its children's order in GET /memory/items/{id}/context,
 * and leaves the rules+facts prefix of T0 byte-identical. Each refusal leaves the head seq.
 */
let closeServed: () => Promise<void>;
let registry: Registry;
let server: RunningServer;
let alice = '';

async function addItems(project: string, items: Record<string, unknown>[]): Promise<string[]> {
  const added = await call(server.url, 'POST', '/memory/items', {
    token: alice,
    body: { project, items },
  });
  expect(added.status).toBe(201);
  return added.body.ids as string[];
}

/** T0 as the server sends it, byte for byte. */
async function orientation(): Promise<string> {
  const response = await fetch(
    `${server.url}/memory/orientation?project=alpha&now=2026-03-01T12:00:00.000Z`,
    { headers: { apikey: alice } },
  );
  expect(response.status).toBe(200);
  return response.text();
}
const prefix = (body: string) => body.slice(0, body.indexOf('"threads"'));
const threadIds = (body: string) =>
  (JSON.parse(body).threads.items as { id: string }[]).map((t) => t.id);

const log = (id: string, body: Record<string, unknown>) =>
  call(server.url, 'POST', `/memory/items/${id}/log`, { token: alice, body });

beforeAll(async () => {
  ({
    registry,
    server,
    close: closeServed,
  } = await servedRegistry(['alpha', 'beta'], { alice: ['alpha', 'beta'] }));
  alice = (await mint(registry, { principal: 'alice', label: 'laptop' })).secret;
});

afterAll(() => closeServed?.());

describe('add_log over HTTP', () => {
  it('POST /memory/items/{id}/log: history, T0 and T1 activity move, the rules+facts prefix stays', async () => {
    const [fact, older] = await addItems('alpha', [
      { type: 'fact', summary: 'Uploads go through Kong' },
      { type: 'thread', summary: 'Upload failures' },
    ]);
    const [first, second] = await addItems('alpha', [
      { type: 'task', summary: 'Reproduce the 413', parent: older },
      { type: 'task', summary: 'Raise the body buffer', parent: older },
    ]);
    const [newer] = await addItems('alpha', [{ type: 'thread', summary: 'Release 2.0' }]);
    const before = await orientation();
    expect(threadIds(before)).toEqual([newer, older]);
    const children = async () =>
      (
        (await call(server.url, 'GET', `/memory/items/${older}/context`, { token: alice })).body
          .children.items as { id: string }[]
      ).map((c) => c.id);
    expect(await children()).toEqual([second, first]);

    const head = await headSeq(registry, 'alpha');
    const logged = await log(first!, {
      project: 'alpha',
      text: 'Reproduced with a 9 KB body',
      conversation: 'chat 7',
    });
    expect(logged.status).toBe(201);
    expect(logged.body).toEqual({ project: 'alpha', ids: [first], seq: head + 1 });

    const history = await call(server.url, 'GET', `/memory/history?project=alpha&ref=${first}`, {
      token: alice,
    });
    expect(history.status).toBe(200);
    expect(history.body.entries.at(-1)).toMatchObject({
      seq: head + 1,
      type: 'item_logged',
      actor: 'alice',
      token: 'laptop',
      text: 'Reproduced with a 9 KB body',
      conversation: 'chat 7',
    });

    expect(await children()).toEqual([first, second]);
    const after = await orientation();
    expect(threadIds(after)).toEqual([older, newer]);
    expect(prefix(after).length).toBeGreaterThan(40);
    expect(prefix(after)).toBe(prefix(before));

    // A log on the fact: its prefix entry carries no activity, so T0's first bytes hold.
    expect((await log(fact!, { project: 'alpha', text: 'Checked again' })).status).toBe(201);
    expect(prefix(await orientation())).toBe(prefix(before));
  });

  it('refuses unknown, deleted and other-project items (404) and empty or oversized text (400 naming the cap), the head seq unchanged', async () => {
    const [task, doomed] = await addItems('alpha', [
      { type: 'task', summary: 'Keep me' },
      { type: 'task', summary: 'Delete me' },
    ]);
    const [elsewhere] = await addItems('beta', [{ type: 'task', summary: 'In beta' }]);
    await asRoot(registry, 'delete_items', { project: 'alpha', ids: [doomed], reason: 'gone' });

    const refusals: [string, Record<string, unknown>, number, string, string][] = [
      ['it-000000000000', { text: 'x' }, 404, 'NOT_FOUND', 'id'],
      [doomed!, { text: 'x' }, 404, 'NOT_FOUND', 'id'],
      [elsewhere!, { text: 'x' }, 404, 'NOT_FOUND', 'id'],
      [task!, { text: '' }, 400, 'INVALID_INPUT', 'text'],
      [task!, { text: 'z'.repeat(4_001) }, 400, 'INVALID_INPUT', 'text'],
      [task!, { text: 'x', conversation: '' }, 400, 'INVALID_INPUT', 'conversation'],
    ];
    for (const [id, body, status, code, field] of refusals) {
      const alpha = await headSeq(registry, 'alpha');
      const beta = await headSeq(registry, 'beta');
      const refused = await log(id, { project: 'alpha', ...body });
      expect(refused.status, `${id} ${JSON.stringify(body).slice(0, 40)}`).toBe(status);
      expect(refused.body.error).toMatchObject({ code, details: { field } });
      expect(await headSeq(registry, 'alpha')).toBe(alpha);
      expect(await headSeq(registry, 'beta')).toBe(beta);
    }
    const oversized = await log(task!, { project: 'alpha', text: 'z'.repeat(4_001) });
    expect(oversized.body.error.message).toContain('at most 4000 characters');
  });
});
