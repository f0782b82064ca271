import { sha256Hex } from '@mem/core';
import { describe, expect, it } from 'vitest';
import { itemNodeId, nodeId } from './node-id.js';
import { planEvent } from './plan.js';
import { chainEvents } from '../test/support.js';

const SHA = sha256Hex('x');

describe('nodeId', () => {
  it('is a safe integer of 52 bits derived from project, level and sha only', () => {
    const id = nodeId('demo', 'L0', SHA);
    expect(Number.isSafeInteger(id)).toBe(true);
    expect(id).toBeLessThan(2 ** 52);
    expect(id).toBe(Number.parseInt(sha256Hex(`demo\u0000L0\u0000${SHA}`).slice(0, 13), 16));
    expect(nodeId('demo', 'L0', SHA)).toBe(id);
  });

  it('differs across levels and projects for the same sha', () => {
    const ids = new Set([
      nodeId('demo', 'L0', SHA),
      nodeId('demo', 'L1', SHA),
      nodeId('other', 'L0', SHA),
    ]);
    expect(ids.size).toBe(3);
  });
});

describe('itemNodeId', () => {
  const added = (project: string, count: number) =>
    chainEvents(
      project,
      Array.from({ length: count }, (_, i) => ({
        type: 'item_added',
        item_type: 'task',
        summary: `task ${i}`,
      })),
    ).map(({ event }) => {
      const [node] = planEvent(event);
      if (node?.statement !== 'insertNode') throw new Error('expected the item node first');
      return node.params.id;
    });

  // Trigger: add_items at 100 k items. Why: hashed ids sent each insert to a random page of
  // node, item_by_node and both FTS5 docsize tables (~480 of ~1,200 pages per 100-item commit).
  it("numbers a project's items in seq order, one after another, the same on every replay", () => {
    const ids = added('demo', 5);
    expect(ids.map((id) => id - ids[0]!)).toEqual([0, 1, 2, 3, 4]);
    expect(added('demo', 5)).toEqual(ids);
    for (const id of ids) expect(Number.isSafeInteger(id)).toBe(true);
  });

  it('keeps items above every hashed node id, and projects in ranges of their own', () => {
    const [demo] = added('demo', 1);
    const [other] = added('other', 1);
    expect(demo).toBeGreaterThanOrEqual(2 ** 52);
    expect(other).toBeGreaterThanOrEqual(2 ** 52);
    expect(Math.abs(demo! - other!)).toBeGreaterThanOrEqual(2 ** 26);
  });

  it('hashes the id of a seq past its range, as nodeId does at level I', () => {
    const sha = sha256Hex(`demo\u0000${2 ** 26}`);
    expect(itemNodeId('demo', 2 ** 26, sha)).toBe(nodeId('demo', 'I', sha));
    expect(itemNodeId('demo', 2 ** 26 - 1, sha)).toBeLessThan(2 ** 53);
  });
});
