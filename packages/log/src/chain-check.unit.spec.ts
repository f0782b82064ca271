import { genesisHash } from '@mem/core';
import { describe, expect, it } from 'vitest';
import { checkLink, type WalkedLink } from './chain-check.js';

const at = { project: 'demo', segment: '000002.jsonl', file: 'log/demo/000002.jsonl', line: 3 };
const previous: WalkedLink = { seq: 9, hash: 'c'.repeat(64), segment: '000002.jsonl', line: 2 };

describe('checkLink', () => {
  it('accepts the next seq chained to the previous hash', () => {
    expect(checkLink(previous, 10, previous.hash, at)).toBeNull();
  });

  it('reports a seq jump at the line itself, naming the line before', () => {
    const broken = checkLink(previous, 11, previous.hash, at);
    expect(broken?.code).toBe('CHAIN_BROKEN');
    expect(broken?.message).toContain('000002.jsonl line 2');
    expect(broken?.details).toMatchObject({ segment: '000002.jsonl', line: 3 });
  });

  it('blames the previous line for a prev mismatch', () => {
    const broken = checkLink(previous, 10, 'd'.repeat(64), at);
    expect(broken?.code).toBe('CHAIN_BROKEN');
    expect(broken?.message).toMatch(/000002\.jsonl line 2 .*changed/);
  });

  it('anchors the first line at seq 1 and the genesis hash', () => {
    const genesis: WalkedLink = { seq: 0, hash: genesisHash('demo'), segment: null, line: 0 };
    expect(checkLink(genesis, 1, genesisHash('demo'), at)).toBeNull();
    expect(checkLink(genesis, 2, genesisHash('demo'), at)?.code).toBe('CHAIN_BROKEN');
    expect(checkLink(genesis, 1, genesisHash('other'), at)?.message).toContain('genesis');
  });
});
