import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpServer } from '@mem/mcp';
import type { Registry } from '@mem/registry';
import type { RunningServer } from '@mem/server';
import { call, headSeq, mint, servedRegistry } from './support.js';

/*
 * The write boundary's text rules at the edges the stop-34 walk left: an Idempotency-Key is held
 * to the control-text rule every write's strings are (refused naming the header and the code
 * point, the code point the client sent), and a CRLF inside a text field is stored as LF where
 * it was a 400 (a CR alone is still refused). Nothing is written on a refusal.
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
  } = await servedRegistry(['alpha'], { alice: ['alpha'] }));
  token = (await mint(registry, { principal: 'alice', label: 'laptop' })).secret;
});
afterAll(() => closeServed?.());

/** A header value carrying these UTF-8 bytes (fetch sends a header's code points as bytes). */
const utf8Header = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

const remember = (text: string, headers: Record<string, string> = {}) =>
  call(server.url, 'POST', '/memory/remember', {
    token,
    body: { project: 'alpha', type: 'fact', text },
    headers,
  });

describe('an Idempotency-Key holding a control or bidi character', () => {
  for (const [name, header, point] of [
    ['a C1 control byte (NEL)', 'retry-\u0085-1', 'U+0085'],
    ['a bidi override sent as UTF-8', utf8Header('retry-\u202e-1'), 'U+202E'],
  ] as const) {
    it(`is refused over HTTP naming the header and ${point} (${name}), nothing written`, async () => {
      const before = await headSeq(registry, 'alpha');
      const answer = await remember('Deploys are cut on Tuesdays', { 'idempotency-key': header });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatchObject({
        code: 'INVALID_INPUT',
        details: { field: 'Idempotency-Key', code_point: point },
      });
      expect(answer.body.error.message).toContain(`Idempotency-Key: contains the`);
      expect(await headSeq(registry, 'alpha')).toBe(before);
    });
  }

  it('takes a UTF-8 key without one, and answers its retry without writing', async () => {
    const key = { 'idempotency-key': utf8Header('clé-€-1') };
    const first = await remember('Releases ship from main', key);
    expect(first.status).toBe(201);
    const head = await headSeq(registry, 'alpha');
    const again = await remember('Releases ship from main', key);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(await headSeq(registry, 'alpha')).toBe(head);
  });

  it('is refused over MCP (the idempotency_key argument) alike, nothing written', async () => {
    const mcp = createMcpServer(registry, { credential: () => token });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcp.connect(serverSide);
    const client = new Client({ name: 'spec', version: '0' });
    await client.connect(clientSide);
    try {
      const before = await headSeq(registry, 'alpha');
      const result = (await client.callTool({
        name: 'items',
        arguments: {
          action: 'remember',
          project: 'alpha',
          type: 'fact',
          text: 'The cache is per worker',
          idempotency_key: 'retry-\u001b[31m',
        },
      })) as { isError?: boolean; content: { text: string }[] };
      expect(result.isError).toBe(true);
      expect(JSON.parse(result.content[0]!.text).error).toMatchObject({
        code: 'INVALID_INPUT',
        details: { field: 'Idempotency-Key', code_point: 'U+001B' },
      });
      expect(await headSeq(registry, 'alpha')).toBe(before);
    } finally {
      await client.close();
    }
  });
});

describe('CRLF inside a text field', () => {
  it('is stored as LF: one form in the log, no CR', async () => {
    const answer = await remember('Deploy steps:\r\n1. tag\r\n2. push');
    expect(answer.status).toBe(201);
    const [id] = answer.body.ids as string[];
    const read = await call(server.url, 'POST', '/memory/items/read', {
      token,
      body: { ids: [id] },
    });
    expect(read.status).toBe(200);
    expect(read.body.items[0].summary).toBe('Deploy steps:\n1. tag\n2. push');
    const logged: string[] = [];
    for await (const { event } of registry.context.engine.read('alpha'))
      if (JSON.stringify(event).includes('Deploy steps:')) logged.push(JSON.stringify(event));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain('Deploy steps:\\n1. tag\\n2. push');
    expect(logged[0]).not.toContain('\\r');
  });

  it('refuses a CR alone (it rewrites a terminal line), naming the field and U+000D, nothing written', async () => {
    const before = await headSeq(registry, 'alpha');
    const answer = await remember('shown\rhidden');
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({
      code: 'INVALID_INPUT',
      details: { field: 'text', code_point: 'U+000D' },
    });
    expect(await headSeq(registry, 'alpha')).toBe(before);
  });
});
