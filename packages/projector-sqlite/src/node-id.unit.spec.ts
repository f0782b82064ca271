import { sha256Hex } from '@mem/core';
import { describe, expect, it } from 'vitest';
import { ITEM_BLOCK_BITS, itemNodeId, nodeId } from './node-id.js';

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
  const BLOCK = 2 ** ITEM_BLOCK_BITS;

  it('gives the items of one block consecutive ids, in seq order', () => {
    const ids = Array.from({ length: 100 }, (_, i) => itemNodeId('demo', 1000 + i));
    expect(ids.every((id, i) => i === 0 || id === ids[i - 1]! + 1)).toBe(true);
    expect(ids[0]! % BLOCK).toBe(1000);
  });

  it('is a safe 52-bit integer: the block slot hashed from project and block, then the offset', () => {
    const seq = 3 * BLOCK + 17;
    const id = itemNodeId('demo', seq);
    expect(Number.isSafeInteger(id)).toBe(true);
    expect(id).toBeLessThan(2 ** 52);
    const slot = Number.parseInt(sha256Hex('demo\u0000I\u00003').slice(0, 9), 16);
    expect(id).toBe(slot * BLOCK + 17);
  });

  it('moves to another slot at a block boundary and differs across projects', () => {
    const last = itemNodeId('demo', BLOCK - 1);
    const next = itemNodeId('demo', BLOCK);
    expect(next % BLOCK).toBe(0);
    expect(Math.floor(next / BLOCK)).not.toBe(Math.floor(last / BLOCK));
    expect(itemNodeId('other', 5)).not.toBe(itemNodeId('demo', 5));
  });
});
