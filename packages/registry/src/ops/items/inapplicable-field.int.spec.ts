import { afterEach, describe, expect, it } from 'vitest';
import { asRoot, engineAt, headSeq, tempDataRoot } from '../../../../../test/api/support.js';
import { testConfig } from '../../../../../test/support/test-config.js';
import { openRegistry } from '../../open.js';
import type { Registry } from '../../registry.js';

/*
 * A field that does not apply to an item's type (`due` on a rule, `valid_until` on a task) is
 * refused alike by every write that takes item fields: add_items, remember and update_item give
 * one details shape (the field, what was expected, the item's type, the types the field applies
 * to, the issues), where remember carried only `expected` and update_item only `type` (the
 * stop-34 walk). Nothing is written.
 */
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(): Promise<{ registry: Registry }> {
  const { root, cleanup } = tempDataRoot(['alpha']);
  cleanups.push(cleanup);
  const registry = await openRegistry({
    engine: engineAt(root),
    version: '0.0.0-test',
    config: testConfig(),
    runJobs: false,
  });
  cleanups.push(() => registry.close());
  return { registry };
}

const run = (registry: Registry, name: string, input: Record<string, unknown>) =>
  asRoot(registry, name, { project: 'alpha', ...input });

const refused = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a refusal');
    },
    (e: unknown) => e as { code: string; details: Record<string, unknown>; message: string },
  );

/** The details of a refusal of `field` on a `type`, as every write gives them. */
const shape = (field: string, type: string, appliesTo: string[], problem: string) => ({
  field,
  expected: `absent on a ${type}`,
  type,
  applies_to: appliesTo,
  issues: [{ field, expected: `absent on a ${type}`, problem }],
});

describe('a field that does not apply to the type', () => {
  it('is refused with one details shape by add_items, remember and update_item, nothing written', async () => {
    const { registry } = await setup();
    const [rule, task] = (
      (await run(registry, 'add_items', {
        items: [
          { type: 'rule', summary: 'Always run the linter' },
          { type: 'task', summary: 'Lint the repo' },
        ],
      })) as { ids: string[] }
    ).ids;
    const head = await headSeq(registry, 'alpha');

    const due = 'due does not apply to a rule: it applies to task only';
    const added = await refused(
      run(registry, 'add_items', {
        items: [
          { type: 'task', summary: 'Fine' },
          { type: 'rule', summary: 'Ship on Fridays', due: '2027-01-01T00:00:00Z' },
        ],
      }),
    );
    expect(added.code).toBe('INVALID_INPUT');
    expect(added.details).toEqual(shape('items[1].due', 'rule', ['task'], due));
    expect(added.message).toBe(`add_items: items[1].due: ${due}`);

    const remembered = await refused(
      run(registry, 'remember', {
        text: 'Ship on Fridays',
        type: 'rule',
        due: '2027-01-01T00:00:00Z',
      }),
    );
    expect(remembered.code).toBe('INVALID_INPUT');
    expect(remembered.details).toEqual(shape('due', 'rule', ['task'], due));
    expect(remembered.message).toBe(`remember: due: ${due}`);

    const valid = 'valid_until does not apply to a task: it applies to rule, fact only';
    const updated = await refused(
      run(registry, 'update_item', {
        id: task,
        valid_until: '2027-01-01T00:00:00Z',
        reason: 'x',
      }),
    );
    expect(updated.code).toBe('INVALID_INPUT');
    expect(updated.details).toEqual(shape('valid_until', 'task', ['rule', 'fact'], valid));
    expect(updated.message).toBe(`update_item: valid_until: ${valid}`);

    // A rule's detail, through update_item: the same shape for a field of another kind.
    const detail = await refused(
      run(registry, 'update_item', { id: rule, detail: 'more', reason: 'x' }),
    );
    expect(detail.details).toEqual(
      shape(
        'detail',
        'rule',
        ['fact', 'task', 'thread', 'reminder'],
        'detail does not apply to a rule: it applies to fact, task, thread, reminder only',
      ),
    );
    expect(await headSeq(registry, 'alpha')).toBe(head);
  });

  it('names remember’s own field for an anchor on work (anchor, not anchors)', async () => {
    const { registry } = await setup();
    const [thread] = (
      (await run(registry, 'add_items', { items: [{ type: 'thread', summary: 'Rework' }] })) as {
        ids: string[];
      }
    ).ids;
    const error = await refused(
      run(registry, 'remember', { text: 'Port it', type: 'task', anchor: [thread] }),
    );
    expect(error.details).toEqual(
      shape(
        'anchor',
        'task',
        ['rule', 'fact'],
        'anchors does not apply to a task: it applies to rule, fact only',
      ),
    );
  });
});
