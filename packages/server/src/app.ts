import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { MemError } from '@mem/core';
import {
  inputJsonSchema,
  type AnyRemoteOperation,
  type Caller,
  type Registry,
} from '@mem/registry';
import { credentialOf } from './credential.js';
import { errorAnswer } from './error-body.js';
import { openApiDocument } from './openapi.js';
import { DEFAULT_RATE_LIMITS, RateLimiter, type RateLimits } from './rate-limit.js';
import { bodyInput, mergeInput, queryInput } from './request-input.js';

export interface AppOptions {
  rateLimits?: Partial<RateLimits>;
  /**
   * The limiter to count requests on (wins over `rateLimits`): one a server shares with its
   * other surfaces (`mem serve`'s warm socket, where a `mem mcp`'s forwarded reads count against
   * the same token's limits as its HTTP requests).
   */
  limiter?: RateLimiter;
  /** Largest request body in bytes: `ingest` for POST /memory/ingest, `other` elsewhere. */
  bodyLimits?: { ingest?: number; log?: number; other?: number };
  /** Where one JSON line per request (and per unexpected error) goes; default: nowhere. */
  log?: (line: string) => void;
  now?: () => number;
}

/** `log`: a raw failing log a route reads whole (POST /memory/context, /memory/signatures/match): a few MB of CI output, more than any other body. */
export const DEFAULT_BODY_LIMITS = {
  ingest: 16 * 1024 * 1024,
  log: 16 * 1024 * 1024,
  other: 64 * 1024,
};

type Env = { Variables: { tokenId: string | undefined } };

/** `/memory/projects/{project}/status` → `/memory/projects/:project/status`. */
function honoPath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ':$1');
}

/**
 * The HTTP surface: one route per registry operation, generated. Each request: credential
 * resolved (per request, so revocations bite at once), rate limits, input assembled from path,
 * query string and JSON body, then the registry validates, authorizes and runs. Errors of every
 * route go through the one onError handler, which maps codes to statuses.
 */
export function createApp(registry: Registry, options: AppOptions = {}): Hono<Env> {
  const limits = { ...DEFAULT_RATE_LIMITS, ...options.rateLimits };
  const bodies = { ...DEFAULT_BODY_LIMITS, ...options.bodyLimits };
  const limiter = options.limiter ?? new RateLimiter(limits, options.now);
  const log = options.log;
  const app = new Hono<Env>();
  const version = registry.context.version;

  app.use('*', async (c, next) => {
    const started = performance.now();
    // Before the route answers: set on a finished response, a header re-makes it around its
    // body as a stream, which the adapter then reads back before writing it (issue 15 target 3).
    c.header('x-mem-version', version);
    await next();
    log?.(
      JSON.stringify({
        ts: new Date().toISOString(),
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        token: c.get('tokenId') ?? null,
      }),
    );
  });

  /** Authenticates and counts a request; a failed authentication counts against the address. */
  const admit = async (c: Context<Env>, operation: string | null): Promise<Caller> => {
    let caller: Caller;
    try {
      caller = await registry.authenticate(
        credentialOf((name) => c.req.header(name)),
        'http',
      );
    } catch (error) {
      limiter.check(`addr:${address(c)}`, null);
      throw error;
    }
    if (caller.tokenId !== null) {
      c.set('tokenId', caller.tokenId);
      limiter.check(`token:${caller.tokenId}`, operation);
    }
    return caller;
  };

  for (const op of registry.remote) {
    const path = honoPath(op.http.path);
    // Every route with a body reads it through the limit; GET bodies are never read.
    if (op.http.method !== 'GET')
      app.on(
        op.http.method,
        path,
        limitBody(
          op.name === 'ingest_submit'
            ? bodies.ingest
            : op.http.body === 'log'
              ? bodies.log
              : bodies.other,
        ),
      );
    app.on(op.http.method, path, async (c) => {
      const caller =
        op.auth.access === 'open'
          ? await registry.authenticate(undefined, 'http')
          : await admit(c, op.name);
      const input = await requestInput(c, op);
      const header = op.kind === 'write' ? c.req.header('idempotency-key') : undefined;
      const idempotencyKey = header !== undefined ? headerText(header) : undefined;
      const output = await registry.invoke(
        op.name,
        caller,
        input,
        idempotencyKey !== undefined ? { idempotencyKey } : {},
      );
      if (op.http.empty?.(output)) return c.body(null, 204);
      return c.json(output as object, op.http.status ?? 200);
    });
  }

  let openapi: object | undefined;
  app.get('/openapi.json', async (c) => {
    const caller = await admit(c, null);
    if (caller.kind === 'anonymous')
      throw new MemError('UNAUTHENTICATED', 'missing or invalid token');
    openapi ??= openApiDocument(registry.remote, version);
    return c.json(openapi);
  });

  app.notFound((c) =>
    c.json(
      errorAnswer(new MemError('NOT_FOUND', `no route ${c.req.method} ${c.req.path}`)).body,
      404,
    ),
  );

  app.onError((error, c) => {
    const answer = errorAnswer(error);
    if (answer.internal) {
      const e = answer.internal.error as Error;
      log?.(
        JSON.stringify({
          ts: new Date().toISOString(),
          level: 'error',
          correlation_id: answer.internal.correlationId,
          method: c.req.method,
          path: c.req.path,
          error: e?.stack ?? String(e),
        }),
      );
    }
    const retryAfter = (error as MemError).details?.['retry_after_s'];
    if (answer.status === 429 && typeof retryAfter === 'number')
      c.header('Retry-After', String(retryAfter));
    // The rest of an oversized body is never read: the connection cannot carry another request.
    if (answer.status === 413) c.header('Connection', 'close');
    return c.json(answer.body, answer.status as 400);
  });

  return app;
}

/**
 * A header's value as the client wrote it. Trigger: a byte over 0x7F in it. Why: Node reads a
 * header's bytes as latin1, so a UTF-8 `U+202E` arrives as `â`, U+0080, `®` and a refusal
 * would name a code point the client never sent. Outcome: bytes that are UTF-8 are read as
 * UTF-8; others (a lone 0x85) stay latin1, each byte one code point.
 */
function headerText(value: string): string {
  if (!/[\u0080-\u00ff]/u.test(value) || /[\u0100-\u{10ffff}]/u.test(value)) return value;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(value, 'latin1'));
  } catch {
    return value;
  }
}

function limitBody(maxSize: number) {
  return bodyLimit({
    maxSize,
    onError: () => {
      throw new MemError('PAYLOAD_TOO_LARGE', `body: larger than ${maxSize} bytes`, {
        field: 'body',
        limit_bytes: maxSize,
      });
    },
  });
}

async function requestInput(
  c: Context<Env>,
  op: AnyRemoteOperation,
): Promise<Record<string, unknown>> {
  const url = new URL(c.req.url);
  const query = queryInput(url.searchParams, inputJsonSchema(op));
  const body =
    op.http.method === 'GET' ? {} : bodyInput(await c.req.text(), c.req.header('content-type'));
  return mergeInput(query, body, c.req.param());
}

function address(c: Context<Env>): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
