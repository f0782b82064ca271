import { afterEach, describe, expect, it } from 'vitest';
import { hasErrorCode } from '@mem/core';
import { asRoot, engineAt, headSeq, tempDataRoot } from '../../../../../test/api/support.js';
import { testConfig } from '../../../../../test/support/test-config.js';
import { inputJsonSchema } from '../../json-schema.js';
import { openRegistry } from '../../open.js';
import type { Registry } from '../../registry.js';
import { rememberOp } from './ops.js';

/*
 * A person types dates (`mem remember … --due 2026-12-24`): every operation input that takes an
 * instant (due, remind_at, valid_until, review_after, orient's now) also takes a calendar date
 * alone, meaning its start in UTC, and the event holds the full instant. A date that does not
 * exist, or a time with an offset, is still INVALID_INPUT naming the field, nothing written.
 */
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(): Promise<Registry> {
  const { root, cleanup } = tempDataRoot(['alpha']);
  cleanups.push(cleanup);
  const registry = await openRegistry({
    engine: engineAt(root),
    version: '0.0.0-test',
    config: testConfig(),
    runJobs: false,
  });
  cleanups.push(() => registry.close());
  return registry;
}

const run = (registry: Registry, name: string, input: Record<string, unknown>) =>
  asRoot(registry, name, { project: 'alpha', ...input });

const refused = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e as { code: string; details?: { field?: string }; message: string },
  );

async function itemFields(registry: Registry, id: string) {
  const read = (await run(registry, 'read_items', { ids: [id] })) as {
    items: Record<string, unknown>[];
  };
  return read.items[0]!;
}

describe('a date alone where an instant is asked for', () => {
  it('means the start of that day in UTC on every item write, and the log holds the full instant', async () => {
    const registry = await setup();
    const [task] = (
      (await run(registry, 'remember', {
        text: 'Ship the release',
        type: 'task',
        due: '2026-12-24',
      })) as { ids: string[] }
    ).ids;
    expect((await itemFields(registry, task!))['due']).toBe('2026-12-24T00:00:00Z');

    const [reminder, fact] = (
      (await run(registry, 'add_items', {
        items: [
          { type: 'reminder', summary: 'Renew the cert', remind_at: '2027-03-10' },
          { type: 'fact', summary: 'The cert is from LE', valid_until: '2028-02-29' },
        ],
      })) as { ids: string[] }
    ).ids;
    expect((await itemFields(registry, reminder!))['remind_at']).toBe('2027-03-10T00:00:00Z');
    expect((await itemFields(registry, fact!))['valid_until']).toBe('2028-02-29T00:00:00Z');

    await run(registry, 'update_item', { id: task, due: '2027-01-05', reason: 'slipped' });
    expect((await itemFields(registry, task!))['due']).toBe('2027-01-05T00:00:00Z');
    await run(registry, 'confirm_item', { id: fact, review_after: '2027-06-01' });
    expect((await itemFields(registry, fact!))['review_after']).toBe('2027-06-01T00:00:00Z');

    const dates: string[] = [];
    for await (const { event } of registry.context.engine.read('alpha')) {
      const fields = event as unknown as Record<string, unknown>;
      for (const key of ['due', 'remind_at', 'valid_until', 'review_after']) {
        const value = fields[key];
        if (typeof value === 'string') dates.push(value);
      }
    }
    expect(dates.sort()).toEqual([
      '2026-12-24T00:00:00Z',
      '2027-01-05T00:00:00Z',
      '2027-03-10T00:00:00Z',
      '2027-06-01T00:00:00Z',
      '2028-02-29T00:00:00Z',
    ]);
  });

  it("orient's now: a date reads as that day's start, the same answer as the full instant", async () => {
    const registry = await setup();
    await run(registry, 'remember', {
      text: 'Renew the cert',
      type: 'reminder',
      remind_at: '2026-03-10T09:00:00Z',
    });
    const byDate = await run(registry, 'orient', { now: '2026-03-01' });
    const byInstant = await run(registry, 'orient', { now: '2026-03-01T00:00:00Z' });
    expect(byDate).toEqual(byInstant);
    expect(JSON.stringify(byDate)).toContain('Renew the cert');
  });

  it('a date that does not exist, a time with an offset or a bare year is refused naming the field, nothing written', async () => {
    const registry = await setup();
    await run(registry, 'remember', { text: 'Seed', type: 'thread' });
    const before = await headSeq(registry, 'alpha');
    const cases: [string, Record<string, unknown>, string][] = [
      ['remember', { text: 'A', type: 'task', due: '2026-02-30' }, 'due'],
      ['remember', { text: 'A', type: 'task', due: '2026-12-24T10:00:00+01:00' }, 'due'],
      ['remember', { text: 'A', type: 'reminder', remind_at: '2026' }, 'remind_at'],
      [
        'add_items',
        { items: [{ type: 'fact', summary: 'A', valid_until: '2026-13-01' }] },
        'items',
      ],
      ['remember', { text: 'A', type: 'rule', due: '2026-12-24' }, 'due'],
    ];
    for (const [name, input, field] of cases) {
      const error = await refused(run(registry, name, input));
      expect(hasErrorCode(error, 'INVALID_INPUT'), `${name} ${JSON.stringify(input)}`).toBe(true);
      expect(error!.details?.field ?? '').toContain(field);
    }
    expect(await headSeq(registry, 'alpha')).toBe(before);
  });

  it('the published input schema (OpenAPI, MCP) offers both forms', () => {
    const due = (inputJsonSchema(rememberOp) as { properties: Record<string, unknown> }).properties[
      'due'
    ];
    const pattern = new RegExp((due as { pattern: string }).pattern);
    expect(
      ['2026-12-24', '2026-12-24T09:00:00Z', '2026-12-24T09:00:00.5Z'].map((v) => pattern.test(v)),
    ).toEqual([true, true, true]);
    expect(
      ['2026-12-24T09:00', '2026-12-24T09:00:00+01:00', '24.12.2026'].map((v) => pattern.test(v)),
    ).toEqual([false, false, false]);
  });
});
