import { z } from 'zod';
import { sha256Field } from './fields.js';

/*
 * Issue 13 §2: an Idempotency-Key's outcome survives a restart and is shared by every process
 * on a data root. The record rides in the batch of the write it answers, as that batch's last
 * event, so the write and its key land in one atomic append: either both are in the log or
 * neither. It holds no key and no request, only their hashes, and no output: the outcome is the
 * batch itself (the `events` before the record), from which the operation states its answer
 * again. An operation whose answer is not in its batch (a minted token's secret, which is never
 * written) keeps its keys in memory instead.
 */
export const idempotencyRecordedShape = {
  /** sha256 of the credential scope, a NUL and the key: a key is per credential. */
  key_sha256: sha256Field,
  /** sha256 of the request (operation and validated input): the same key with another request is a conflict. */
  fingerprint: sha256Field,
  /** The operation that ran, by registry name. */
  op: z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, 'expected an operation name: 1-64 of [a-z0-9_]'),
  /** How many events of the batch, right before this one, the write appended. */
  events: z.int().min(1),
};
