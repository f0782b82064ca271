import { MemError } from '@mem/core';
import type { VectorKind, VectorLevel } from './recall-types.js';

const KINDS: readonly VectorKind[] = ['text', 'symptom'];
const LEVELS: readonly VectorLevel[] = ['L0', 'L1', 'L2', 'R', 'I'];
export const MAX_RECALL_LIMIT = 1000;

/**
 * Refuses a recall request that cannot mean anything, naming the field: INVALID_INPUT for an
 * unknown kind or level, an empty filter, a limit outside 1..1000, or a vector that is not
 * `dims` finite float32 values with a length (cosine distance to a zero vector is undefined).
 */
export function checkRecallInput(
  kind: unknown,
  vector: unknown,
  filter: unknown,
  limit: unknown,
  dims: number,
  embedder: string,
): void {
  const bad = (field: string, message: string, details: Record<string, unknown> = {}) =>
    new MemError('INVALID_INPUT', `recall ${field}: ${message}`, { field, ...details });
  if (!KINDS.includes(kind as VectorKind))
    throw bad('kind', `expected "text" or "symptom", got ${JSON.stringify(kind)}`);
  if (!(vector instanceof Float32Array)) throw bad('vector', 'expected a Float32Array');
  if (vector.length !== dims) {
    throw bad(
      'vector',
      `expected ${dims} dimensions (the projection holds vectors of embedder ${embedder}), got ${vector.length}`,
      { expected: dims, actual: vector.length, embedder },
    );
  }
  let norm = 0;
  for (const x of vector) {
    if (!Number.isFinite(x)) throw bad('vector', 'expected finite values');
    norm += x * x;
  }
  if (norm === 0)
    throw bad('vector', 'expected a non-zero vector: cosine distance to zero is undefined');
  const { projects, levels } = (filter ?? {}) as { projects?: unknown; levels?: unknown };
  if (
    !Array.isArray(projects) ||
    projects.length === 0 ||
    !projects.every((p) => typeof p === 'string' && p.length > 0)
  ) {
    throw bad('filter.projects', 'expected a non-empty list of project names');
  }
  if (
    !Array.isArray(levels) ||
    levels.length === 0 ||
    !levels.every((l) => LEVELS.includes(l as VectorLevel))
  ) {
    throw bad('filter.levels', `expected a non-empty list of ${LEVELS.join(', ')}`);
  }
  if (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > MAX_RECALL_LIMIT) {
    throw bad(
      'limit',
      `expected an integer from 1 to ${MAX_RECALL_LIMIT}, got ${JSON.stringify(limit)}`,
    );
  }
}
