import { createHash } from 'node:crypto';
import { contentSha256 } from '@mem/core';
import { describe, expect, it } from 'vitest';
import { parseFold, serializeFold } from './append-fold-file.js';
import type { AppendFold } from './append-fold.js';
import { ProvenanceCheck } from './provenance.js';
import { TombstoneSet } from './tombstones/tombstone-set.js';

function fold(): AppendFold {
  const provenance = new ProvenanceCheck('demo');
  provenance.restore(contentSha256('an evidence').slice(0, 16), 1);
  provenance.restore(contentSha256('a memory').slice(0, 16), 2 | 8);
  const tombstones = new TombstoneSet();
  tombstones.add({
    target: contentSha256('- a forgotten line'),
    seq: 7,
    reason: 'wrong',
    refuses: [{ sha256: contentSha256('- a forgotten line'), terms: ['t1', 't2'] }],
  });
  return { head: { seq: 9, hash: 'f'.repeat(64) }, provenance, tombstones };
}

/** The bytes with their body changed by `edit` and the checksum made right again. */
function resealed(bytes: Buffer, edit: (body: Buffer) => Buffer): Buffer {
  const body = edit(Buffer.from(bytes.subarray(0, bytes.length - 32)));
  return Buffer.concat([body, createHash('sha256').update(body).digest()]);
}

describe('a saved append fold', () => {
  it('parses back to the same head, nodes and tombstones', () => {
    const saved = fold();
    const parsed = parseFold(serializeFold('demo', saved)!, 'demo')!;
    expect(parsed.head).toEqual(saved.head);
    expect([...parsed.provenance.nodes()]).toEqual([...saved.provenance.nodes()]);
    expect(parsed.tombstones.entries()).toEqual(saved.tombstones.entries());
    expect(parsed.tombstones.match('- a forgotten line')?.tombstone).toBe(
      contentSha256('- a forgotten line'),
    );
  });

  it('is refused whole when it is of another project, cut short, changed or miscounted', () => {
    const bytes = serializeFold('demo', fold())!;
    expect(parseFold(bytes, 'other')).toBeNull();
    expect(parseFold(bytes.subarray(0, bytes.length - 1), 'demo')).toBeNull();
    const flipped = Buffer.from(bytes);
    flipped[bytes.length - 40]! ^= 1;
    expect(parseFold(flipped, 'demo')).toBeNull();
    // A record cut off with the checksum right: the header's count no longer fits the records.
    expect(
      parseFold(
        resealed(bytes, (body) => body.subarray(0, body.length - 9)),
        'demo',
      ),
    ).toBeNull();
    expect(
      parseFold(
        resealed(bytes, (body) => body.subarray(1)),
        'demo',
      ),
    ).toBeNull();
  });

  it('is not written when a node key is not 16 hex characters', () => {
    const saved = fold();
    saved.provenance.restore('not-a-hex-key!!!', 1);
    expect(serializeFold('demo', saved)).toBeNull();
  });
});
