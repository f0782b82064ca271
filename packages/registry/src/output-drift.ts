import { isDeepStrictEqual } from 'node:util';
import type { AnyOperation } from './operation.js';

/**
 * Where an answer, as a surface delivered it (JSON), departs from its operation's declared
 * output schema, or null when it matches. A field the schema lacks counts: zod strips unknown
 * keys, so the parsed answer no longer equals the delivered one. Why: the OpenAPI document and
 * the MCP tool list are generated from these schemas, so an undeclared field is drift.
 */
export function outputDrift(op: AnyOperation, answer: unknown): string | null {
  const delivered: unknown = JSON.parse(JSON.stringify(answer ?? null));
  const parsed = op.output.safeParse(delivered);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return `${op.name}: ${issue.path.join('.') || '(output)'}: ${issue.message}`;
  }
  const declared: unknown = JSON.parse(JSON.stringify(parsed.data ?? null));
  if (isDeepStrictEqual(declared, delivered)) return null;
  return `${op.name}: the answer carries fields its output schema does not declare: ${undeclared(declared, delivered, '').join(', ')}`;
}

/** Paths present in `delivered` and absent from `declared`. */
function undeclared(declared: unknown, delivered: unknown, at: string): string[] {
  if (Array.isArray(delivered) && Array.isArray(declared))
    return delivered.flatMap((item, i) => undeclared(declared[i], item, `${at}[${i}]`));
  if (
    delivered === null ||
    typeof delivered !== 'object' ||
    declared === null ||
    typeof declared !== 'object'
  )
    return [];
  return Object.entries(delivered).flatMap(([key, value]) => {
    const path = at === '' ? key : `${at}.${key}`;
    return key in declared
      ? undeclared((declared as Record<string, unknown>)[key], value, path)
      : [path];
  });
}
