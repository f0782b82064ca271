import { assertProjectName, isMemError } from '@mem/core';
import { UsageError } from './exit.js';

export function projectFlag(value: unknown, flag = '--project'): string {
  try {
    return assertProjectName(value);
  } catch (error) {
    throw new UsageError(`${flag}: ${isMemError(error) ? error.message : String(error)}`);
  }
}

export function positiveIntFlag(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`${flag}: expected a positive integer, got ${JSON.stringify(value)}`);
  }
  return Number(value);
}
