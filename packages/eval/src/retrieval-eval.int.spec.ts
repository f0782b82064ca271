import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hasErrorCode, loadConfig } from '@mem/core';
import { cacheFileName } from '@mem/embed';
import { describe, expect, it } from 'vitest';
import type { LocomoConversation } from './locomo.js';
import { evalRetrieval } from './retrieval-eval.js';

const turn = (diaId: string, speaker: string, text: string) => ({ diaId, speaker, text });

/** Two tiny conversations in LoCoMo's shape: the answers sit in different turns and conversations. */
const conversations: LocomoConversation[] = [
  {
    sampleId: 'conv-a',
    speakers: ['Ana', 'Ben'],
    sessions: [
      {
        number: 1,
        dateTime: '1:56 pm on 8 May, 2023',
        turns: [
          turn('D1:1', 'Ana', 'I adopted a greyhound called Pixel last week.'),
          turn('D1:2', 'Ben', 'Congratulations! I started pottery classes on Tuesdays.'),
          turn('D1:3', 'Ana', 'Thanks!'),
          turn('D1:4', 'Ben', 'Thanks!'),
        ],
      },
      {
        number: 2,
        dateTime: null,
        turns: [
          turn('D2:1', 'Ana', 'Pixel learned to fetch the frisbee at the beach.'),
          turn('D2:2', 'Ben', 'My pottery teacher praised my vase.'),
        ],
      },
    ],
    questions: [
      {
        question: 'What is the name of the greyhound Ana adopted?',
        answer: 'Pixel',
        evidence: ['D1:1'],
        category: 4,
      },
      {
        question: 'What did Pixel learn at the beach, and what pet is Pixel?',
        answer: 'fetch; greyhound',
        evidence: ['D1:1', 'D2:1'],
        category: 1,
      },
      {
        question: 'Which classes did Ben start?',
        answer: 'pottery',
        evidence: ['D1:2'],
        category: 4,
      },
      {
        question: 'What does the unrelated astrophysics question ask?',
        answer: null,
        evidence: ['D1:4'],
        category: 5,
      },
      {
        question: 'A question without evidence is not asked',
        answer: 'x',
        evidence: [],
        category: 3,
      },
    ],
  },
  {
    sampleId: 'conv-b',
    speakers: ['Cy', 'Di'],
    sessions: [
      {
        number: 1,
        dateTime: null,
        turns: [
          turn('D1:1', 'Cy', 'My greyhound Pixel is a different dog.'),
          turn('D1:2', 'Di', 'I repaired the bicycle chain.'),
        ],
      },
    ],
    questions: [
      { question: 'What did Di repair?', answer: 'bicycle chain', evidence: ['D1:2'], category: 4 },
    ],
  },
];

describe('evalRetrieval', () => {
  it('asks every question with evidence through the query path, scoped to its conversation, beside the FTS5 baseline', async () => {
    const report = await evalRetrieval(conversations, {
      ks: [1, 2, 5],
      vector: null,
      reranker: null,
    });
    expect(report).toMatchObject({
      questions: 5,
      conversations: 2,
      turns: 8,
      nodes: 8,
      ks: [1, 2, 5],
    });
    expect(report.stack).toEqual({
      signals: ['keyword'],
      embedder: null,
      reranker: null,
      keyword_strategy: 'or',
    });
    // q1, q3, q5 answered at rank 1; q2 finds both turns by k=2; q4 (unrelated words) abstains.
    expect(report.mem.recall).toEqual({ '1': 0.7, '2': 0.8, '5': 0.8 });
    expect(report.mem.abstained).toBe(1);
    expect(report.mem.per_category).toEqual({
      '1': { '1': 0.5, '2': 1, '5': 1, questions: 1 },
      '4': { '1': 1, '2': 1, '5': 1, questions: 3 },
      '5': { '1': 0, '2': 0, '5': 0, questions: 1 },
    });
    expect(Object.keys(report.baseline_fts5.recall)).toEqual(['1', '2', '5']);
    expect(report.anchors.dragon_dialog).toEqual({ '5': 0.567 });
    expect(report.mem.latency_ms.p95).toBeGreaterThanOrEqual(report.mem.latency_ms.p50);
  });

  it('a repeated turn text is one node standing for both dia_ids', async () => {
    const [a] = conversations;
    const repeated: LocomoConversation = {
      ...a!,
      sessions: [
        ...a!.sessions,
        { number: 3, dateTime: null, turns: [turn('D3:1', 'Ana', 'Thanks!')] },
      ],
      questions: [
        { question: 'When did Ana say thanks?', answer: null, evidence: ['D3:1'], category: 2 },
      ],
    };
    const report = await evalRetrieval([repeated], { ks: [1], vector: null, reranker: null });
    expect(report).toMatchObject({ turns: 7, nodes: 6 });
    expect(report.mem.recall['1']).toBe(1); // "Ana: Thanks!" is D1:3 and D3:1
  });

  it('runs the embedded defaults: hash embedder and PGlite vector recall fused with keywords, through the embedding cache', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'mem-eval-cache-'));
    try {
      const report = await evalRetrieval(conversations, {
        ks: [1, 5],
        config: {},
        embedCache: cache,
        sweep: { floors: [0.45, 1] },
      });
      expect(report.stack).toMatchObject({
        signals: ['keyword', 'vector_text', 'vector_symptom'],
        embedder: 'hash-768',
      });
      expect(report.mem.recall['5']).toBeGreaterThanOrEqual(0.8);
      expect(report.tuning).toMatchObject({
        floor: { minSimilarity: 0.45 },
        weights: { vector_text: 0.1 },
      });
      expect(report.sweep.map((row) => row.floor.minSimilarity)).toEqual([0.45, 1]);
      expect(report.sweep[0]!.recall).toEqual(report.mem.recall);
      expect(readdirSync(cache)).toEqual([cacheFileName('hash-768')]);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  }, 180_000); // PGlite starts a WASM Postgres: seconds alone, minutes on a loaded machine

  it('--limit writes only the conversations it asks about; no question at all is an empty report', async () => {
    const report = await evalRetrieval(conversations, {
      ks: [1],
      limit: 2,
      vector: null,
      reranker: null,
    });
    expect(report).toMatchObject({ questions: 2, conversations: 1, turns: 6 });
    const none = await evalRetrieval([{ ...conversations[1]!, questions: [] }], {
      ks: [1],
      vector: null,
      reranker: null,
    });
    expect(none).toMatchObject({
      questions: 0,
      conversations: 0,
      mem: { recall: { '1': 0 }, abstained: 0 },
    });
  });

  it('sweeps every floor × weights setting, one row each, recording what the answers used', async () => {
    const report = await evalRetrieval(conversations, {
      ks: [1, 5],
      vector: null,
      reranker: null,
      sweep: { floors: [0.3, 0.9], weights: [{ keyword: 1 }, { keyword: 0.5 }] },
    });
    expect(report.sweep.map((row) => [row.floor.minSimilarity, row.weights.keyword])).toEqual([
      [0.3, 1],
      [0.3, 0.5],
      [0.9, 1],
      [0.9, 0.5],
    ]);
    // Keyword recall alone: neither the similarity floor nor one weight on every rank moves a row.
    for (const row of report.sweep)
      expect(row).toMatchObject({ recall: report.mem.recall, abstained: report.mem.abstained });
    expect(
      (await evalRetrieval(conversations, { ks: [1], vector: null, reranker: null })).sweep,
    ).toEqual([]);
    await expect(
      evalRetrieval(conversations, { ks: [1], vector: null, sweep: { floors: [1.5] } }),
    ).rejects.toSatisfy((e) => hasErrorCode(e, 'INVALID_INPUT'));
  });

  it('asks under the floor the environment sets, and reports it', async () => {
    const strict = await evalRetrieval(conversations, {
      ks: [1],
      vector: null,
      reranker: null,
      config: loadConfig({ MEM_QUERY_FLOOR_COVERAGE: '1', MEM_QUERY_FLOOR_KEYWORD: '1000' }),
    });
    expect(strict.tuning?.floor).toMatchObject({ minCoverage: 1, minKeyword: 1000 });
    expect(strict.mem.abstained).toBeGreaterThan(1);
  });

  it('refuses k outside 1..100 (INVALID_INPUT)', async () => {
    await expect(evalRetrieval(conversations, { ks: [0], vector: null })).rejects.toSatisfy((e) =>
      hasErrorCode(e, 'INVALID_INPUT'),
    );
    await expect(evalRetrieval(conversations, { ks: [101], vector: null })).rejects.toSatisfy((e) =>
      hasErrorCode(e, 'INVALID_INPUT'),
    );
  });
});
