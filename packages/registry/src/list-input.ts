import { z } from 'zod';

/**
 * The list rule of every surface: each value's comma-separated parts, trimmed, empty parts
 * dropped (`"a, b,"` is `a` and `b`). The schema's `listInput`, the CLI's list flags and the
 * HTTP query string all split with this, so `project: "alpha,beta"` means one thing everywhere.
 */
export function splitList(values: string | readonly string[]): string[] {
  return (typeof values === 'string' ? [values] : values)
    .flatMap((value) => value.split(','))
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

/** The list inputs made by `listInput`, told apart when their JSON Schema is written. */
const LIST_INPUTS = new WeakSet<z.ZodType>();

const LIST_DESCRIPTION = 'a list, or one string of comma-separated values';

/**
 * A list of `item`, given as a JSON array or as one string whose commas separate the values
 * (`"alpha"`, `"alpha,beta"`). Why the schema says it: HTTP's query string can only carry the
 * string, the CLI's flags are strings, and MCP sends JSON, so the rule lives where every
 * surface validates, and `project: "alpha"` means the same over all three.
 */
export function listInput<T extends z.ZodType<string, string>>(item: T, min: number, max: number) {
  // A preprocess, not a union: a bad value keeps its place in the error (`level[1]`), where a
  // union's refusal is "Invalid input" with one branch per alternative. Zod 4 writes a
  // preprocess's input JSON Schema as its output's (a pipe whose first stage is a transform
  // shows its second), so `listJsonSchema` adds the string to what MCP and OpenAPI are shown.
  const schema = z
    .preprocess(
      (value) => (typeof value === 'string' ? splitList(value) : value),
      z.array(item).min(min).max(max),
    )
    .describe(LIST_DESCRIPTION);
  LIST_INPUTS.add(schema);
  return schema;
}

/**
 * `z.toJSONSchema`'s `override` for list inputs: the array it wrote becomes `anyOf` the array
 * and a string, so a client reading the tool or OpenAPI schema is told a string is taken.
 */
export function listJsonSchema(ctx: {
  zodSchema: unknown;
  jsonSchema: Record<string, unknown>;
}): void {
  if (!LIST_INPUTS.has(ctx.zodSchema as z.ZodType)) return;
  const json = ctx.jsonSchema;
  const { description, ...array } = json;
  for (const key of Object.keys(json)) delete json[key];
  Object.assign(json, {
    anyOf: [array, { type: 'string', description: 'comma-separated values' }],
    description: description ?? LIST_DESCRIPTION,
  });
}
