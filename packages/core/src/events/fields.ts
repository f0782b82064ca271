import { z } from 'zod';

/** A lowercase sha256 hex digest. */
export const sha256Field = z
  .string()
  .regex(/^[0-9a-f]{64}$/, 'expected a sha256: 64 lowercase hex characters');

/** A run id: what joins every record of one extraction run. */
export const runIdField = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$/, 'expected a run id: 1-128 of [A-Za-z0-9._:@-]');

/** A standing query id, as in queries/<project>.yaml. */
export const queryIdField = z
  .string()
  .regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'expected a query id: 1-64 of [a-z0-9._-]');

/** Step index within a run, 1-based. */
export const stepField = z.int().min(1);

export const countField = z.int().min(0);

export const levelField = z.enum(['L0', 'L1', 'L2', 'R']);
export type Level = z.infer<typeof levelField>;

/** A non-empty source URI such as `claude:<session>`, `pi:<stem>`, `L1:<query-id>`, `locomo:conv-1#D1:3`. */
export const sourceField = z.string().min(1, 'expected a non-empty source URI');

/** [start, end) record offsets of a chunk within its source, or null when it has none (L1 input). */
export const spanField = z
  .tuple([z.int().min(0), z.int().min(0)])
  .refine(([start, end]) => start <= end, { message: 'expected [start, end] with start <= end' })
  .nullable();

/** An error carried by a record, e.g. a run that ended on a failed controller. */
export const errorField = z.strictObject({
  code: z.string().min(1),
  message: z.string(),
});
