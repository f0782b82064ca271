import { z } from 'zod';
import {
  CAPABILITIES,
  principalNameField,
  projectNameSchema,
  tokenIdField,
  tokenLabelField,
} from '@mem/core';

/*
 * Input and output pieces shared by several operations. Inputs are strict: an unknown field
 * is a 400 naming it, never silently ignored.
 */

/** A project a caller names: never `_system`, which is administration, not memory. */
export const projectInput = projectNameSchema.refine((name) => name !== '_system', {
  message: 'expected a project, not the reserved "_system"',
});

/**
 * A list of `item`, given as a JSON array or as one string whose commas separate the values
 * (`"alpha"`, `"alpha,beta"`). Why the schema says it: HTTP's query string can only carry the
 * string, the CLI's flags are strings, and MCP sends JSON, so the rule lives where every
 * surface validates, and `project: "alpha"` means the same over all three.
 */
export function listInput<T extends z.ZodType<string, string>>(item: T, min: number, max: number) {
  // A preprocess, not a union: a bad value keeps its place in the error (`level[1]`), and the
  // JSON Schema keeps the item's shape (enum, pattern); the description says a string is taken.
  return z
    .preprocess(
      (value) =>
        typeof value === 'string'
          ? value
              .split(',')
              .map((part) => part.trim())
              .filter((part) => part !== '')
          : value,
      z.array(item).min(min).max(max),
    )
    .describe('a list, or one string of comma-separated values');
}

export const principalInput = principalNameField;
export const tokenIdInput = tokenIdField;
export const labelInput = tokenLabelField;
export const capabilityInput = z.enum(CAPABILITIES);

/** A token as listed: everything but its secret. */
export const tokenView = z.object({
  id: z.string(),
  label: z.string(),
  principal: z.string(),
  projects: z.union([z.literal('*'), z.array(z.string())]),
  capabilities: z.array(z.string()),
  created_at: z.string(),
  expires_at: z.string().nullable(),
  revoked: z.boolean(),
});

export const errorView = z.object({ code: z.string(), message: z.string() });
