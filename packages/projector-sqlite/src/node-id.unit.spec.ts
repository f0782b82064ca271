import { sha256Hex } from '@mem/core';
import { describe, expect, it } from 'vitest';
import { nodeId } from './node-id.js';

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
