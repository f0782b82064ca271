import { z } from 'zod';
import { listJsonSchema } from './list-input.js';
import type { AnyOperation } from './operation.js';

/** A JSON Schema object (draft 2020-12, as OpenAPI 3.1 and MCP take it). */
export type JsonSchema = Record<string, unknown>;

const cache = new WeakMap<AnyOperation, { input: JsonSchema; output: JsonSchema }>();

function convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    override: listJsonSchema,
  }) as JsonSchema;
  delete json['$schema'];
  return json;
}

function schemasOf(op: AnyOperation): { input: JsonSchema; output: JsonSchema } {
  let entry = cache.get(op);
  if (!entry) {
    entry = { input: convert(op.input, 'input'), output: convert(op.output, 'output') };
    cache.set(op, entry);
  }
  return entry;
}

/** The JSON Schema of what an operation takes (defaults optional), generated from its zod input. */
export function inputJsonSchema(op: AnyOperation): JsonSchema {
  return schemasOf(op).input;
}

/** The JSON Schema of what an operation returns. */
export function outputJsonSchema(op: AnyOperation): JsonSchema {
  return schemasOf(op).output;
}
