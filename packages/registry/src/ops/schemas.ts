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

export { listInput } from '../list-input.js';

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
