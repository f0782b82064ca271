import { z } from 'zod';
import { projectNameSchema } from '../project.js';
import { sha256Field } from './fields.js';

/** Who appended an event: a kind of writer, and for API writes the principal and token *label* (never a secret). */
export const writerSchema = z.strictObject({
  kind: z
    .string()
    .regex(/^[a-z][a-z0-9_-]{0,31}$/, 'expected a writer kind such as "cli", "extractor", "api"'),
  principal: z.string().min(1).optional(),
  token: z.string().min(1).optional(),
});
export type Writer = z.infer<typeof writerSchema>;

/** Envelope fields that come before the payload, in serialisation order. `prev` follows the payload. */
export const envelopeHead = {
  seq: z.int().min(1),
  ts: z.iso.datetime({ offset: false, message: 'expected an ISO-8601 UTC timestamp' }),
  project: projectNameSchema,
} as const;

export const envelopeTail = {
  prev: sha256Field,
} as const;
