import { afterEach, describe, expect, it } from 'vitest';
import { hasErrorCode } from '@mem/core';
import { asRoot, registryAt, tempDataRoot } from '../../../../../test/api/support.js';

/*
 * The stop-34 walk: `find --type rule --status open` (a status filter on a knowledge type)
 * answered 200 with total 0. A write refuses the same pair; so does a find now.
 */
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup() {
  const { root, cleanup } = tempDataRoot(['alpha']);
  const registry = await registryAt(root, { runJobs: false });
  cleanups.push(cleanup, () => registry.close());
  return registry;
}

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(hasErrorCode(error, 'INVALID_INPUT')).toBe(true);
  return error as Error & { details?: Record<string, unknown> };
};

describe('find_items: a status filter its type cannot hold', () => {
  it('a knowledge type with a status is INVALID_INPUT naming status and the type', async () => {
    const registry = await setup();
    const error = await refusal(
      asRoot(registry, 'find_items', { project: 'alpha', type: 'rule', status: 'open' }),
    );
    expect(error.message).toMatch(/status does not apply to a rule/);
    expect(error.details).toEqual({ field: 'status', type: 'rule' });
  });

  it('a work type with a status not its own is INVALID_INPUT listing its statuses', async () => {
    const registry = await setup();
    const error = await refusal(
      asRoot(registry, 'find_items', { project: 'alpha', type: 'reminder', status: 'in_progress' }),
    );
    expect(error.details).toMatchObject({ field: 'status', type: 'reminder' });
    expect(error.details?.['expected']).not.toContain('in_progress');
  });

  it('a status a type holds is answered', async () => {
    const registry = await setup();
    const found = (await asRoot(registry, 'find_items', {
      project: 'alpha',
      type: 'task',
      status: 'open',
    })) as { total: number };
    expect(found.total).toBe(0);
  });
});
