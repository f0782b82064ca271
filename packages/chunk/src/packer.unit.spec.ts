import fc from 'fast-check';
import { contentSha256, hasErrorCode } from '@mem/core';
import { describe, expect, it } from 'vitest';
import { ChunkPacker, packRecords } from './packer.js';
import { chunkPolicy } from './policy.js';
import type { SourceRecord } from './record.js';
import { charTokenizer } from './testing/char-tokenizer.js';
import { expectChunkingContract } from './testing/invariants.js';
import { record, recordStream } from './testing/records.js';

// With one token per character, a block "[user]\n" + text + "\n\n" costs 9 + text.length.
const policy = (maxTokens: number) => chunkPolicy({ maxTokens });

describe('packRecords', () => {
  it('renders records as role-headed blocks and packs them greedily', () => {
    const records = [
      record('user', 'a'.repeat(11)),
      record('assistant', 'b'.repeat(6)),
      record('user', 'c'.repeat(21)),
    ];
    const chunks = packRecords(records, policy(40), charTokenizer);
    expect(chunks.map((c) => c.text)).toEqual([
      `[user]\n${'a'.repeat(11)}\n\n[assistant]\n${'b'.repeat(6)}\n\n`,
      `[user]\n${'c'.repeat(21)}\n\n`,
    ]);
    expect(chunks.map((c) => c.tokens)).toEqual([20 + 20, 30]);
    expect(chunks.map((c) => c.span)).toEqual([
      [0, 2],
      [2, 3],
    ]);
    expect(chunks[0]?.records.map((r) => [r.role, r.ordinal, r.textRange])).toEqual([
      ['user', 0, [7, 18]],
      ['assistant', 1, [32, 38]],
    ]);
    expect(chunks[0]?.sha256).toBe(contentSha256(chunks[0]?.text ?? ''));
    expect(chunks.map((c) => c.index)).toEqual([1, 2]);
  });

  it('fills a chunk to exactly the budget', () => {
    const chunks = packRecords(
      [record('user', 'x'.repeat(11)), record('user', 'y'.repeat(11))],
      policy(40),
      charTokenizer,
    );
    expect(chunks).toHaveLength(1);
    expect(chunks[0]?.tokens).toBe(40);
  });

  it('never mixes sources: a source change closes the chunk, ordinals count per source', () => {
    const records = [
      record('user', 'a', 'claude:s1'),
      record('user', 'b', 'pi:p1'),
      record('user', 'c', 'claude:s1'),
    ];
    const chunks = packRecords(records, policy(1000), charTokenizer);
    expect(chunks.map((c) => [c.source, c.span])).toEqual([
      ['claude:s1', [0, 1]],
      ['pi:p1', [0, 1]],
      ['claude:s1', [1, 2]],
    ]);
  });

  it('splits a record only when it alone exceeds the budget, on line boundaries, recording spans', () => {
    const text = ['line one', 'line two', 'line three', 'line four'].join('\n');
    // Overheads: "[tool_result]\n" + "\n\n" = 16, "[tool_result, continued]\n" + "\n\n" = 27.
    const chunks = packRecords(
      [record('user', 'short'), record('tool_result', text), record('user', 'after')],
      policy(50),
      charTokenizer,
    );
    expect(chunks.map((c) => c.splitOf)).toEqual([
      undefined,
      { part: 1, parts: 2 },
      { part: 2, parts: 2 },
      undefined,
    ]);
    const [, first, second] = chunks;
    expect(first?.text).toBe('[tool_result]\nline one\nline two\nline three\n\n\n');
    expect(second?.text).toBe('[tool_result, continued]\nline four\n\n');
    expect(first?.records[0]?.part).toEqual({ lines: [0, 3], chars: [0, 29] });
    expect(second?.records[0]?.part).toEqual({ lines: [3, 4], chars: [29, text.length] });
    // The first piece does not complete record 1: a run stopped after it must read record 1 again.
    expect(chunks.map((c) => c.span)).toEqual([
      [0, 1],
      [1, 1],
      [1, 2],
      [2, 3],
    ]);
    for (const c of chunks) expect(c.tokens).toBeLessThanOrEqual(50);
  });

  it('cuts a single line longer than the budget as a last resort', () => {
    const line = 'z'.repeat(100);
    const chunks = packRecords([record('assistant', line)], policy(40), charTokenizer);
    expect(chunks.length).toBeGreaterThan(2);
    expect(
      chunks
        .map((c) => c.text.slice(c.records[0]?.textRange[0], c.records[0]?.textRange[1]))
        .join(''),
    ).toBe(line);
    for (const c of chunks) {
      expect(c.tokens).toBeLessThanOrEqual(40);
      expect(c.records[0]?.part?.lines).toEqual([0, 1]);
    }
  });

  it('never cuts a surrogate pair', () => {
    const line = '😀'.repeat(50);
    const chunks = packRecords([record('assistant', line)], policy(40), charTokenizer);
    for (const c of chunks) {
      const piece = c.text.slice(c.records[0]?.textRange[0], c.records[0]?.textRange[1]);
      expect(piece).toMatch(/^(?:😀)+$/u);
    }
  });

  it('refuses an invalid record with INVALID_INPUT naming the field', () => {
    const packer = new ChunkPacker(policy(100), charTokenizer);
    const bad = { ...record('user', 'x'), role: 'robot' } as unknown as SourceRecord;
    let thrown: unknown;
    try {
      packer.push(bad);
    } catch (error) {
      thrown = error;
    }
    expect(hasErrorCode(thrown, 'INVALID_INPUT')).toBe(true);
    expect((thrown as { details: { field: string } }).details.field).toBe('role');
  });

  it('keeps the contract on random record streams', () => {
    fc.assert(
      fc.property(recordStream, fc.integer({ min: 32, max: 400 }), (records, maxTokens) => {
        const chunks = packRecords(records, policy(maxTokens), charTokenizer);
        expectChunkingContract(records, chunks, maxTokens, charTokenizer);
        expect(packRecords(records, policy(maxTokens), charTokenizer)).toEqual(chunks); // (e) deterministic
      }),
      { numRuns: 200 },
    );
  });
});

describe('ChunkPacker', () => {
  it('reports pending tokens and flushes once', () => {
    const packer = new ChunkPacker(policy(100), charTokenizer);
    expect(packer.push(record('user', 'hi'))).toEqual([]);
    expect(packer.hasPending).toBe(true);
    expect(packer.pendingTokens).toBe(11);
    expect(packer.flush()).toHaveLength(1);
    expect(packer.flush()).toEqual([]);
    expect(packer.hasPending).toBe(false);
  });
});

describe('ChunkPacker skipBefore', () => {
  it('keeps whole-source ordinals and packs only records from the given ordinal on', () => {
    const tokenizer = { name: 'chars', count: (text: string) => text.length };
    const records = ['one', 'two', 'three', 'four'].map((text) => ({
      role: 'user' as const,
      text,
      timestamp: null,
      provenance: { source: 'pi:s' },
      cwd: null,
    }));
    const packer = new ChunkPacker(
      chunkPolicy({ maxTokens: 1000 }),
      tokenizer,
      new Map([['pi:s', 2]]),
    );
    const out = [...records.flatMap((r) => packer.push(r)), ...packer.flush()];
    expect(out).toHaveLength(1);
    expect(out[0]!.span).toEqual([2, 4]);
    expect(out[0]!.records.map((r) => r.ordinal)).toEqual([2, 3]);
    expect(out[0]!.text).not.toContain('one');
  });
});
