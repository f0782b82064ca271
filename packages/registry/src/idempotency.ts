import { MemError, refuseControlText, sha256Hex } from '@mem/core';

type Entry =
  | { state: 'in_flight'; fingerprint: string }
  | { state: 'done'; fingerprint: string; output: unknown; at: number };

/** The request a key was first used for, as a hash: operation and validated input. */
export function requestFingerprint(request: unknown): string {
  return sha256Hex(JSON.stringify(request) ?? 'undefined');
}

/** The same key with a different request. */
export function keyConflict(): MemError {
  return new MemError('CONFLICT', 'Idempotency-Key was already used for a different request', {
    field: 'Idempotency-Key',
  });
}

/**
 * INVALID_INPUT unless `key` may be an Idempotency-Key: 1-255 characters, and no control or bidi
 * character (refuseControlText, as every write's text). Trigger: a key holding one (MCP takes
 * any JSON string; HTTP passes C1 and UTF-8 bytes). Why: only its hash is stored, but a key is
 * text a client shows and logs, and every other string a write takes is held to this. Outcome:
 * refused naming the header and the code point, before anything runs.
 */
export function requireIdempotencyKey(key: string, operation: string): void {
  if (key.length === 0 || key.length > 255)
    throw new MemError('INVALID_INPUT', 'Idempotency-Key: expected 1-255 characters', {
      field: 'Idempotency-Key',
      expected: '1-255 characters',
    });
  refuseControlText({ 'Idempotency-Key': key }, operation);
}

/** How long an outcome is remembered, and how many at most (oldest forgotten first). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
export const IDEMPOTENCY_MAX_KEYS = 10_000;

/**
 * Idempotency keys on writes (seed 000 §6): the first call with a key runs, its outcome is
 * recorded, and a retry with the same key and the same request gets that outcome without
 * running again; a retry while the first is still running is CONFLICT (the outcome is not
 * known yet), and so is the same key with a different request. Keys are per credential.
 * Failures are not recorded: a failed write changed nothing, so retrying it is safe.
 *
 * Held in memory, in front of the log: it answers a retry within this process and tells a retry
 * while the first call still runs. An operation that declares `replay` also records its key in
 * the batch it appends (recorded-idempotency.ts), so its outcome survives a restart and is seen
 * by every process on the root. The others (a minted token's outcome holds its secret, which is
 * never written anywhere) are kept here only: a restart forgets their keys (an accepted ingest
 * stays idempotent through its ingest_id, which the log holds).
 */
export class IdempotencyStore {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly now: () => number = Date.now) {}

  async run<T>(scope: string, key: string, request: unknown, fn: () => Promise<T>): Promise<T> {
    const id = `${scope}\u0000${key}`;
    const fingerprint = requestFingerprint(request);
    this.expire();
    const entry = this.entries.get(id);
    if (entry && entry.fingerprint !== fingerprint) throw keyConflict();
    if (entry?.state === 'in_flight') {
      throw new MemError(
        'CONFLICT',
        'a request with this Idempotency-Key is still in flight; retry once it has answered',
        { field: 'Idempotency-Key', state: 'in_flight' },
      );
    }
    if (entry?.state === 'done') return entry.output as T;
    this.entries.set(id, { state: 'in_flight', fingerprint });
    try {
      const output = await fn();
      this.entries.delete(id);
      this.entries.set(id, { state: 'done', fingerprint, output, at: this.now() });
      return output;
    } catch (error) {
      this.entries.delete(id);
      throw error;
    }
  }

  private expire(): void {
    const cutoff = this.now() - IDEMPOTENCY_TTL_MS;
    // Map iteration is insertion order: the oldest outcomes come first.
    for (const [id, entry] of this.entries) {
      if (
        this.entries.size <= IDEMPOTENCY_MAX_KEYS &&
        (entry.state === 'in_flight' || entry.at > cutoff)
      )
        break;
      if (entry.state === 'done') this.entries.delete(id);
    }
  }
}
