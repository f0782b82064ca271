import { describe, expect, it } from 'vitest';
import { foldSignatures } from './fold-signatures.js';
import type { SignatureParams } from './planned-write.js';

const occurrence = (
  sig: string,
  node: string,
  ts: string,
  raw = `${sig} raw at ${ts}`,
): SignatureParams => ({
  project: 'demo',
  sig_sha: sig,
  signature: `${sig} normalised`,
  tool: 'npm',
  raw,
  node_level: 'L1',
  node_sha: node,
  ts,
});

describe('foldSignatures', () => {
  it('sums each signature in log order: count, first seen, and the latest raw line, node and time', () => {
    const folds = foldSignatures([
      occurrence('a', 'n1', 't1'),
      occurrence('b', 'n1', 't1'),
      occurrence('a', 'n2', 't2'),
      occurrence('a', 'n3', 't0'),
    ]);
    expect(folds).toEqual([
      {
        sig_sha: 'a',
        signature: 'a normalised',
        tool: 'npm',
        raw: 'a raw at t0',
        node_level: 'L1',
        node_sha: 'n3',
        count: 3,
        first_seen: 't1',
        last_seen: 't0',
      },
      {
        sig_sha: 'b',
        signature: 'b normalised',
        tool: 'npm',
        raw: 'b raw at t1',
        node_level: 'L1',
        node_sha: 'n1',
        count: 1,
        first_seen: 't1',
        last_seen: 't1',
      },
    ]);
  });

  it('folds nothing to nothing', () => {
    expect(foldSignatures([])).toEqual([]);
  });
});
