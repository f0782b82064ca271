// Test support: what a call threw, or a promise rejected with, for assertions on typed errors.
import { isMemError, type MemError } from '@mem/core';

/** The value `fn` throws; a test failure when it returns. */
export function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

/** The MemError `promise` rejects with; a test failure naming what it got instead. */
export async function memErrorOf(promise: Promise<unknown>): Promise<MemError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!isMemError(error)) throw new Error(`expected a MemError, got ${String(error)}`);
  return error;
}
