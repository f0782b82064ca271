import { inputJsonSchema, type JsonSchema } from './json-schema.js';
import type { AnyRemoteOperation } from './operation.js';

/** One MCP tool and the operations behind it. */
export interface McpToolGroup {
  name: string;
  description: string;
  /** The input field that picks the operation when several share the tool (e.g. `action`). */
  selectField: string | null;
  /** Operations by the value of `selectField` (the one operation under `''` when unfolded). */
  operations: ReadonlyMap<string, AnyRemoteOperation>;
  inputSchema: JsonSchema;
  /** Derived from the operations' class, never written by hand. */
  annotations: {
    readOnlyHint: boolean;
    destructiveHint: boolean;
    idempotentHint: boolean;
    openWorldHint: false;
  };
}

/** The argument a write tool takes as its idempotency key. */
export const IDEMPOTENCY_ARGUMENT = 'idempotency_key';

/**
 * The MCP projection of the registry: operations grouped by tool, with annotations derived
 * from read/write class (read-only only if every operation is a read; destructive if any is;
 * idempotent only if all are) and one input schema per tool.
 */
export function mcpTools(operations: readonly AnyRemoteOperation[]): McpToolGroup[] {
  const byTool = new Map<string, AnyRemoteOperation[]>();
  for (const op of operations) byTool.set(op.mcp.tool, [...(byTool.get(op.mcp.tool) ?? []), op]);
  return [...byTool].map(([name, ops]) => {
    const folded = ops.length > 1;
    const selectField = folded ? (ops[0]!.mcp.select?.field ?? null) : null;
    if (
      folded &&
      (selectField === null || ops.some((op) => op.mcp.select?.field !== selectField))
    ) {
      throw new Error(
        `MCP tool ${name} folds ${ops.map((op) => op.name).join(', ')}: each needs mcp.select on one field`,
      );
    }
    const operationsByValue = new Map<string, AnyRemoteOperation>(
      ops.map((op) => [folded ? op.mcp.select!.value : '', op]),
    );
    const readOnly = ops.every((op) => op.kind === 'read');
    return {
      name,
      description: ops.find((op) => op.mcp.description)?.mcp.description ?? ops[0]!.summary,
      selectField,
      operations: operationsByValue,
      inputSchema: toolSchema(ops, selectField),
      annotations: {
        readOnlyHint: readOnly,
        destructiveHint: !readOnly && ops.some((op) => op.destructive === true),
        idempotentHint: ops.every((op) => op.idempotent),
        openWorldHint: false,
      },
    };
  });
}

/**
 * One tool's input schema: the union of its operations' fields. A field the operations shape
 * differently is `anyOf` its distinct shapes, each once (`project`: a string, or find's list),
 * never one `anyOf` per operation wrapped around the last (the items tool was 28 levels deep).
 */
function toolSchema(ops: readonly AnyRemoteOperation[], selectField: string | null): JsonSchema {
  const shapes = new Map<string, Map<string, JsonSchema>>();
  const descriptions = new Map<string, string>();
  const required = new Set<string>();
  for (const op of ops) {
    const schema = inputJsonSchema(op);
    const props = (schema['properties'] ?? {}) as Record<string, JsonSchema>;
    for (const [key, value] of Object.entries(props)) {
      const described = typeof value['description'] === 'string' ? value['description'] : '';
      // The last operation's description names the field, as when the shapes were nested.
      descriptions.set(key, described);
      const distinct = shapes.get(key) ?? new Map<string, JsonSchema>();
      distinct.set(JSON.stringify(value), value);
      shapes.set(key, distinct);
    }
    // Unfolded: the operation's required fields are the tool's. Folded: each action says its own.
    if (!selectField) for (const key of (schema['required'] ?? []) as string[]) required.add(key);
  }
  const properties: Record<string, JsonSchema> = {};
  for (const [key, distinct] of shapes) {
    const described = descriptions.get(key)!;
    const note = selectField
      ? {
          description: `${described}${described ? ' ' : ''}(${selectField}: ${ops
            // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- tsc needs the object cast for `in`
            .filter((o) => key in ((inputJsonSchema(o)['properties'] ?? {}) as object))
            .map((o) => o.mcp.select!.value)
            .join(', ')})`,
        }
      : {};
    const [only, ...more] = [...distinct.values()];
    properties[key] =
      more.length === 0 ? { ...only, ...note } : { anyOf: [only, ...more], ...note };
  }
  if (ops.some((op) => op.kind === 'write')) {
    properties[IDEMPOTENCY_ARGUMENT] = {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      description: 'a retried write with the same key is not applied twice',
    };
  }
  if (selectField) {
    properties[selectField] = {
      type: 'string',
      enum: ops.map((op) => op.mcp.select!.value),
      description: 'which operation of this tool to run',
    };
    required.add(selectField);
  }
  return { type: 'object', properties, required: [...required], additionalProperties: false };
}
