import {
  inputJsonSchema,
  outputJsonSchema,
  type AnyRemoteOperation,
  type JsonSchema,
} from '@mem/registry';
import { ERROR_STATUSES } from './status.js';

const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string' },
        message: { type: 'string' },
        details: { type: 'object' },
        correlation_id: {
          type: 'string',
          description: 'only on 500: pairs the answer with the server log',
        },
      },
    },
  },
};

function pathParams(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
}

function operationObject(op: AnyRemoteOperation): JsonSchema {
  const input = inputJsonSchema(op);
  const properties = (input['properties'] ?? {}) as Record<string, JsonSchema>;
  const required = new Set((input['required'] ?? []) as string[]);
  const inPath = pathParams(op.http.path);
  const parameters: JsonSchema[] = inPath.map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: properties[name] ?? { type: 'string' },
  }));
  const rest = Object.keys(properties).filter((k) => !inPath.includes(k));
  let requestBody: JsonSchema | undefined;
  if (op.http.method === 'POST') {
    const body = {
      ...input,
      properties: Object.fromEntries(rest.map((k) => [k, properties[k]])),
      required: [...required].filter((k) => !inPath.includes(k)),
    };
    requestBody = { required: true, content: { 'application/json': { schema: body } } };
  } else {
    for (const name of rest) {
      const schema = properties[name]!;
      // A list input is `anyOf` an array and a string: sent as one comma-separated value.
      const list =
        schema['type'] === 'array' ||
        ((schema['anyOf'] ?? []) as JsonSchema[]).some((s) => s['type'] === 'array');
      parameters.push({
        name,
        in: 'query',
        required: required.has(name),
        schema,
        ...(list ? { style: 'form', explode: false } : {}),
      });
    }
  }
  const success = String(op.http.status ?? 200);
  const responses: JsonSchema = {
    [success]: {
      description: op.summary,
      content: { 'application/json': { schema: outputJsonSchema(op) } },
    },
  };
  if (op.http.empty)
    responses['204'] = {
      description: 'nothing relevant: the query abstained and held nothing back',
    };
  for (const status of ERROR_STATUSES) {
    if (op.auth.access === 'open' && status !== 500) continue;
    responses[String(status)] = {
      description: describe(status),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  return {
    operationId: op.name,
    summary: op.summary,
    tags: [op.kind],
    ...(op.auth.access === 'open' ? { security: [] } : {}),
    'x-mem-authorization': op.auth,
    'x-mem-idempotent': op.idempotent,
    'x-mem-mcp-tool': op.mcp,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses,
  };
}

function describe(status: number): string {
  return (
    {
      400: 'malformed input: the field and the expected shape',
      401: 'missing or invalid token',
      403: 'the project refused, or the capability missing',
      404: 'no such thing, or not visible to this token',
      409: 'conflict: the current state and what was attempted',
      413: 'body over the size limit',
      422: "the project's standing queries are missing or invalid",
      429: 'rate limit exceeded; see Retry-After',
      500: 'unexpected; masked, with a correlation id',
    } as Record<number, string>
  )[status]!;
}

/** The OpenAPI 3.1 document of every HTTP route, generated from the registry. */
export function openApiDocument(
  operations: readonly AnyRemoteOperation[],
  version: string,
): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const op of operations) {
    paths[op.http.path] ??= {};
    paths[op.http.path]![op.http.method.toLowerCase()] = operationObject(op);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'mem',
      version,
      description: 'Project memory for coding agents. Generated from the operation registry.',
    },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }, { xApiKey: [] }, { apikey: [] }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer' },
        xApiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
        apikey: { type: 'apiKey', in: 'header', name: 'apikey' },
      },
      schemas: { Error: ERROR_SCHEMA },
    },
    paths,
  };
}
