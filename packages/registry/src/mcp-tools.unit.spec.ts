import { describe, expect, it } from 'vitest';
import { inputJsonSchema, type JsonSchema } from './json-schema.js';
import { splitList } from './list-input.js';
import { mcpTools } from './mcp-tools.js';
import { remoteOperations } from './operation.js';
import { OPERATIONS } from './ops/index.js';

describe('the MCP projection of the registry', () => {
  const tools = mcpTools(remoteOperations(OPERATIONS));

  it('puts every operation behind exactly one tool, reachable by its select value', () => {
    const reached = tools.flatMap((tool) => [...tool.operations.values()].map((op) => op.name));
    expect(reached.sort()).toEqual(
      remoteOperations(OPERATIONS)
        .map((op) => op.name)
        .sort(),
    );
    for (const tool of tools) {
      if (tool.selectField === null) expect(tool.operations.size).toBe(1);
      else
        expect(
          (tool.inputSchema['properties'] as Record<string, { enum: string[] }>)[
            tool.selectField
          ]!.enum.sort(),
        ).toEqual([...tool.operations.keys()].sort());
    }
  });

  it('names every action a folded tool runs in its description, so an agent reading it knows they exist', () => {
    for (const tool of tools.filter((t) => t.selectField !== null))
      for (const action of tool.operations.keys())
        expect(tool.description, `${tool.name}: ${action}`).toMatch(
          new RegExp(`\\b${action}\\b`, 'i'),
        );
    const items = tools.find((t) => t.name === 'items')!;
    expect([...items.operations.keys()]).toEqual(
      expect.arrayContaining(['open', 'log', 'relate', 'update', 'confirm', 'attention', 'pin']),
    );
  });

  it('derives annotations from the read/write class, never by hand', () => {
    for (const tool of tools) {
      const ops = [...tool.operations.values()];
      expect(tool.annotations.readOnlyHint).toBe(ops.every((op) => op.kind === 'read'));
      expect(tool.annotations.idempotentHint).toBe(ops.every((op) => op.idempotent));
      if (ops.some((op) => op.destructive)) expect(tool.annotations.destructiveHint).toBe(true);
      if (tool.annotations.readOnlyHint) expect(tool.annotations.destructiveHint).toBe(false);
    }
    expect(tools.find((t) => t.name === 'manage_tokens')!.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
    });
    expect(tools.find((t) => t.name === 'query')!.annotations).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
    });
  });

  it('offers an idempotency key on tools that write, and every input schema is an object', () => {
    for (const tool of tools) {
      expect(tool.inputSchema['type']).toBe('object');
      const writes = [...tool.operations.values()].some((op) => op.kind === 'write');
      expect('idempotency_key' in (tool.inputSchema['properties'] as object)).toBe(writes);
    }
  });

  // listInput takes a JSON list or one comma-separated string; zod 4 wrote a preprocess's input
  // schema as the array alone, so an MCP client was never told the string is taken.
  it('says a list field takes a list or one comma-separated string (query, find_items)', () => {
    /** The JSON types a property's schema admits, through every anyOf. */
    const types = (schema: JsonSchema): string[] => [
      ...(typeof schema['type'] === 'string' ? [schema['type']] : []),
      ...((schema['anyOf'] ?? []) as JsonSchema[]).flatMap(types),
    ];
    const property = (tool: string, field: string) =>
      (tools.find((t) => t.name === tool)!.inputSchema['properties'] as Record<string, JsonSchema>)[
        field
      ]!;
    for (const [tool, field] of [
      ['query', 'project'],
      ['query', 'level'],
      ['items', 'projects'],
    ] as const)
      expect(types(property(tool, field)).sort(), `${tool}.${field}`).toEqual(['array', 'string']);
    // The list branch keeps the item's shape: levels are still an enum, with the list's bounds.
    const level = (property('query', 'level')['anyOf'] as JsonSchema[]).find(
      (s) => s['type'] === 'array',
    )!;
    expect(level).toMatchObject({ minItems: 1, items: { enum: expect.arrayContaining(['L1']) } });
  });
});

describe("a folded tool's field that its operations shape differently", () => {
  const tools = mcpTools(remoteOperations(OPERATIONS));
  const depth = (v: unknown): number =>
    v !== null && typeof v === 'object' ? 1 + Math.max(0, ...Object.values(v).map(depth)) : 0;

  it('is anyOf exactly the distinct shapes its operations give it: the same inputs taken, none nested', () => {
    for (const tool of tools) {
      const ops = [...tool.operations.values()];
      const properties = tool.inputSchema['properties'] as Record<string, JsonSchema>;
      for (const [key, field] of Object.entries(properties)) {
        const own = ops
          .map((op) => (inputJsonSchema(op)['properties'] as Record<string, JsonSchema>)[key])
          .filter((shape): shape is JsonSchema => shape !== undefined);
        if (own.length === 0) continue; // action, idempotency_key: the tool's own
        const distinct = [...new Set(own.map((shape) => JSON.stringify(shape)))].sort();
        const { description: _note, ...shape } = field;
        const given =
          distinct.length === 1
            ? [JSON.stringify({ ...shape, ...pick(own[0]!, 'description') })]
            : (shape['anyOf'] as JsonSchema[]).map((branch) => JSON.stringify(branch)).sort();
        expect(given, `${tool.name}.${key}`).toEqual(distinct);
      }
    }
  });

  it('keeps the items tool shallow and smaller (it was 10,719 characters, 28 levels deep)', () => {
    const items = tools.find((t) => t.name === 'items')!.inputSchema;
    // Measured: 8,335 characters, 8 levels (a list field's anyOf inside an array's items).
    expect(depth(items)).toBeLessThanOrEqual(8);
    expect(JSON.stringify(items).length).toBeLessThan(9_000);
  });
});

function pick(schema: JsonSchema, key: string): JsonSchema {
  return key in schema ? { [key]: schema[key] } : {};
}

describe('splitList, the one list rule of the CLI, HTTP and the schemas', () => {
  it('splits each value at commas, trims the parts and drops empty ones', () => {
    expect(splitList('alpha')).toEqual(['alpha']);
    expect(splitList(' alpha, beta ,,')).toEqual(['alpha', 'beta']);
    expect(splitList(['a,b', ' c ', ''])).toEqual(['a', 'b', 'c']);
    expect(splitList(',')).toEqual([]);
  });
});
