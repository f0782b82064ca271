import { MemError } from '@mem/core';

/** pgvector indexes at most 2000 dimensions of `vector`; nothing mem embeds needs more. */
export const MAX_DIMS = 2000;

/** Refuses a dimension that is not an integer in 1..MAX_DIMS, naming where it came from. */
export function checkDims(dims: number, where: string): number {
  if (!Number.isInteger(dims) || dims < 1 || dims > MAX_DIMS) {
    throw new MemError(
      'CONFIG_INVALID',
      `${where}: expected an embedding dimension, an integer from 1 to ${MAX_DIMS}, got ${JSON.stringify(dims)}`,
      { where, dims },
    );
  }
  return dims;
}
