import { z } from 'zod';
import { defineOperation } from '../operation.js';

const empty = z.strictObject({});

/** `GET /health`: the server answers. Open. */
export const health = defineOperation({
  name: 'health',
  summary: 'liveness probe: the server answers',
  input: empty,
  output: z.object({ ok: z.literal(true) }),
  kind: 'read',
  idempotent: true,
  auth: { access: 'open' },
  http: { method: 'GET', path: '/health' },
  mcp: { tool: 'health', description: 'Check that the mem server answers.' },
  run: async () => ({ ok: true as const }),
});

/** `GET /version`: which mem this is, so a client can floor-check it. Open. */
export const version = defineOperation({
  name: 'version',
  summary: "the server's mem version",
  input: empty,
  output: z.object({ name: z.literal('mem'), version: z.string() }),
  kind: 'read',
  idempotent: true,
  auth: { access: 'open' },
  http: { method: 'GET', path: '/version' },
  mcp: { tool: 'version', description: "The mem server's version." },
  run: async (ctx) => ({ name: 'mem' as const, version: ctx.version }),
});
