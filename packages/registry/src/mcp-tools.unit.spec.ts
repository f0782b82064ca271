import { describe, expect, it } from 'vitest';
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
});
