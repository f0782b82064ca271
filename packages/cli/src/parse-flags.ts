import { MemError, assertProjectName, isMemError } from '@mem/core';
import { UsageError } from './exit.js';

export function projectFlag(value: unknown, flag = '--project'): string {
  try {
    return assertProjectName(value);
  } catch (error) {
    if (!isMemError(error)) throw error;
    // The flag's name, and the code a registry command gives the same refusal (INVALID_PROJECT).
    const said = new MemError(error.code, `${flag}: ${error.message}`, error.details, {
      cause: error,
    });
    throw new UsageError(said.message, { cause: said });
  }
}

export function positiveIntFlag(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`${flag}: expected a positive integer, got ${JSON.stringify(value)}`);
  }
  return Number(value);
}
