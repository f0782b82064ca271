import { z } from 'zod';
import { projectNameSchema } from '../project.js';
import { sha256Field } from './fields.js';

/*
 * Administration payloads (DESIGN §4, seed 000 §3): principals, projects, memberships and
 * tokens. They live in the `_system` log only; a token's secret never does, only its sha256.
 */

/** A principal's name: every principal is a person. */
export const principalNameField = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9._-]{0,63}$/,
    'expected a principal name: 1-64 of [a-z0-9._-], starting with a letter or digit',
  );

/** A token's public id: 16 lowercase hex characters, visible in `mem_<id>_<secret>`. */
export const tokenIdField = z
  .string()
  .regex(/^[0-9a-f]{16}$/, 'expected a token id: 16 lowercase hex characters');

/** A human-readable token label, recorded on every write the token makes. Not unique: rotation overlaps. */
export const tokenLabelField = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._:@-]{0,63}$/,
    'expected a token label: 1-64 of [A-Za-z0-9._:@-], starting with a letter or digit',
  );

/** Grants a token may carry; both default to absent (fail closed). */
export const CAPABILITIES = ['admin', 'may_write_rules'] as const;
export const capabilityField = z.enum(CAPABILITIES);
export type Capability = z.infer<typeof capabilityField>;

/** The projects a token may reach: a sorted list, or `*` for whatever its principal is a member of. */
export const tokenProjectsField = z.union([
  z.literal('*'),
  z.array(projectNameSchema).refine((list) => list.every((p, i) => i === 0 || list[i - 1]! < p), {
    message: 'expected project names sorted and without duplicates',
  }),
]);

export const principalAddedShape = { name: principalNameField };

export const projectAddedShape = { name: projectNameSchema };

/*
 * A membership names its project `project_name`: `project` is the envelope's field (the log
 * the event lives in, always `_system` here), and one object cannot carry two.
 */
export const memberAddedShape = { project_name: projectNameSchema, principal: principalNameField };

export const memberRemovedShape = {
  project_name: projectNameSchema,
  principal: principalNameField,
};

export const tokenMintedShape = {
  token_id: tokenIdField,
  label: tokenLabelField,
  principal: principalNameField,
  projects: tokenProjectsField,
  capabilities: z
    .array(capabilityField)
    .refine((list) => list.every((c, i) => i === 0 || list[i - 1]! < c), {
      message: 'expected capabilities sorted and without duplicates',
    }),
  expires_at: z.iso
    .datetime({ offset: false, message: 'expected an ISO-8601 UTC timestamp or null' })
    .nullable(),
  /** sha256 hex of the secret part of the token: the plaintext is never logged. */
  secret_sha256: sha256Field,
};

export const tokenRevokedShape = {
  token_id: tokenIdField,
  reason: z.string().min(1).max(500).optional(),
};
