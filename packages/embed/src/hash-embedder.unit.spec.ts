import { describe, expect, it } from 'vitest';
import { sha256Hex } from '@mem/core';
import { hashEmbed, hashEmbedder } from './hash-embedder.js';

const cosine = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * b[i]!, 0);
const norm = (a: Float32Array) => Math.sqrt(cosine(a, a));

describe('hashEmbedder', () => {
  it('is named by its dimension and answers one vector of that dimension per text', async () => {
    const embedder = hashEmbedder(64);
    expect(embedder.name).toBe('hash-64');
    expect(embedder.dims).toBe(64);
    const vectors = await embedder.embed(['one text', 'another'], 'document');
    expect(vectors.map((v) => v.length)).toEqual([64, 64]);
    expect(hashEmbedder().name).toBe('hash-768');
  });

  it('is deterministic: the same text gives the same bytes, in any batch and instance', async () => {
    const text = 'requests over 10KB failed because Kong buffered the body';
    const [a] = await hashEmbedder(768).embed([text], 'document');
    const [, b] = await hashEmbedder(768).embed(['something else first', text], 'document');
    expect(Buffer.from(a!.buffer).equals(Buffer.from(b!.buffer))).toBe(true);
    // A fixed fingerprint: an accidental change to the features changes vectors that caches and projections keyed by `hash-768` already hold.
    const vector = hashEmbed('npm ERR! ERESOLVE unable to resolve dependency tree', 768);
    expect(sha256Hex(new Uint8Array(vector.buffer))).toMatchInlineSnapshot(
      `"62f1535d9ae500810b05c3d773cf2a25e53bdce802efaef5098fff1f932a9668"`,
    );
  });

  it('L2-normalises every vector', () => {
    for (const text of [
      'a',
      'kong buffered the body',
      'x '.repeat(500),
      'Ünïcödé wörds and 12345 numbers',
    ]) {
      expect(norm(hashEmbed(text, 256))).toBeCloseTo(1, 5);
    }
  });

  it('folds case and Unicode composition, and ignores punctuation and spacing', () => {
    const base = hashEmbed('Café timeout', 128);
    expect(Array.from(hashEmbed('CAFE\u0301   TIMEOUT!', 128))).toEqual(Array.from(base));
  });

  it('embeds a text without letters or digits as the zero vector', () => {
    expect(Array.from(hashEmbed(' ... !!! ', 16)).every((x) => x === 0)).toBe(true);
  });

  it('puts similar texts closer than unrelated ones', () => {
    const query = hashEmbed('413 Request Entity Too Large from the ingress', 768);
    const similar = hashEmbed(
      'the ingress answered 413 request entity too large for big bodies',
      768,
    );
    const unrelated = hashEmbed('postgres volume mount failed during the probe', 768);
    expect(cosine(query, similar)).toBeGreaterThan(cosine(query, unrelated) + 0.2);
    // Character n-grams: an inflected form is nearer than an unrelated word.
    expect(cosine(hashEmbed('buffered', 256), hashEmbed('buffering', 256))).toBeGreaterThan(
      cosine(hashEmbed('buffered', 256), hashEmbed('timeout', 256)),
    );
  });

  it('refuses a dimension that pgvector cannot index', () => {
    for (const dims of [0, -1, 1.5, 2001, Number.NaN]) {
      expect(() => hashEmbedder(dims)).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID' }));
    }
  });
});
