import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cachedEmbedder } from './cached-embedder.js';
import type { Embedder } from './embedder.js';
import { cacheFileName } from './embedding-cache.js';
import { hashEmbedder } from './hash-embedder.js';

/** The hash embedder, counting the texts that reach it. */
function counting(dims = 8): Embedder & { seen: string[] } {
  const inner = hashEmbedder(dims);
  const seen: string[] = [];
  return {
    name: inner.name,
    dims,
    seen,
    embed: async (texts, role) => (seen.push(...texts), inner.embed(texts, role)),
  };
}

const bytes = (vectors: Float32Array[]) =>
  vectors.map((v) => Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex'));

describe('cachedEmbedder', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'mem-embed-cache-'));
    dirs.push(dir);
    mkdirSync(join(dir, 'state'));
    return join(dir, 'state', 'cache', 'embeddings');
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('answers exactly what the embedder answers, and sends each distinct miss once', async () => {
    const inner = counting();
    const cached = cachedEmbedder(inner, tempDir());
    expect(cached.name).toBe(inner.name);
    expect(cached.dims).toBe(inner.dims);
    const texts = ['kong buffered the body', 'probe timeout', 'kong buffered the body'];
    const first = await cached.embed(texts, 'document');
    expect(inner.seen).toEqual(['kong buffered the body', 'probe timeout']);
    expect(bytes(first)).toEqual(bytes(await hashEmbedder(8).embed(texts, 'document')));
    const second = await cached.embed([...texts, 'new text'], 'document');
    expect(inner.seen).toEqual(['kong buffered the body', 'probe timeout', 'new text']);
    expect(bytes(second)).toEqual(
      bytes(await hashEmbedder(8).embed([...texts, 'new text'], 'document')),
    );
  });

  it('keys by the exact text: texts that differ only in case are two entries', async () => {
    const inner = counting();
    const cached = cachedEmbedder(inner, tempDir());
    await cached.embed(['Kong', 'kong'], 'document');
    expect(inner.seen).toEqual(['Kong', 'kong']);
  });

  it('survives the process: a new instance over the same directory reads what the last one wrote', async () => {
    const dir = tempDir();
    await cachedEmbedder(counting(), dir).embed(['a', 'b', 'c'], 'document');
    const inner = counting();
    await cachedEmbedder(inner, dir).embed(['c', 'b', 'a', 'd'], 'document');
    expect(inner.seen).toEqual(['d']);
  });

  it('keeps one file per embedder name, so two models never share vectors', async () => {
    const dir = tempDir();
    await cachedEmbedder(counting(8), dir).embed(['a'], 'document');
    const other = counting(16);
    await cachedEmbedder(other, dir).embed(['a'], 'document');
    expect(other.seen).toEqual(['a']);
    expect(readdirSync(dir).sort()).toEqual(
      [cacheFileName('hash-16'), cacheFileName('hash-8')].sort(),
    );
  });

  it('ignores a torn last record and cuts it off before the next append', async () => {
    const dir = tempDir();
    await cachedEmbedder(counting(), dir).embed(['a', 'b'], 'document');
    const file = join(dir, cacheFileName('hash-8'));
    const full = statSync(file).size;
    truncateSync(file, full - 5); // the crash tore record 'b'
    const inner = counting();
    const cached = cachedEmbedder(inner, dir);
    expect(bytes(await cached.embed(['a', 'b'], 'document'))).toEqual(
      bytes(await hashEmbedder(8).embed(['a', 'b'], 'document')),
    );
    expect(inner.seen).toEqual(['b']);
    expect(statSync(file).size).toBe(full);
    const again = counting();
    await cachedEmbedder(again, dir).embed(['a', 'b'], 'document');
    expect(again.seen).toEqual([]);
  });

  it('treats a record whose checksum fails as a miss, never as a vector', async () => {
    const dir = tempDir();
    await cachedEmbedder(counting(), dir).embed(['a'], 'document');
    const file = join(dir, cacheFileName('hash-8'));
    const data = readFileSync(file);
    data[data.length - 10]! ^= 0xff; // flip bits inside the vector
    writeFileSync(file, data);
    const inner = counting();
    expect(bytes(await cachedEmbedder(inner, dir).embed(['a'], 'document'))).toEqual(
      bytes(await hashEmbedder(8).embed(['a'], 'document')),
    );
    expect(inner.seen).toEqual(['a']);
  });

  it('drops a file under its name that is not its cache', async () => {
    const dir = tempDir();
    await cachedEmbedder(counting(), dir).embed(['a'], 'document');
    const file = join(dir, cacheFileName('hash-8'));
    writeFileSync(file, 'not a cache at all, but long enough to hold a header');
    appendFileSync(file, Buffer.alloc(100));
    const inner = counting();
    const cached = cachedEmbedder(inner, dir);
    await cached.embed(['a'], 'document');
    expect(inner.seen).toEqual(['a']);
    const again = counting();
    await cachedEmbedder(again, dir).embed(['a'], 'document');
    expect(again.seen).toEqual([]);
  });

  it('still embeds when the cache cannot be written or read', async () => {
    const dir = tempDir();
    // A file where the cache directory should be: mkdir and open fail, even for root.
    writeFileSync(join(dir, '..'), 'in the way');
    const inner = counting();
    const cached = cachedEmbedder(inner, dir);
    expect(bytes(await cached.embed(['a'], 'document'))).toEqual(
      bytes(await hashEmbedder(8).embed(['a'], 'document')),
    );
    expect(bytes(await cached.embed(['a'], 'document'))).toEqual(
      bytes(await hashEmbedder(8).embed(['a'], 'document')),
    );
    expect(inner.seen).toEqual(['a', 'a']);
  });

  it('refuses an embedder that answers the wrong dimension', async () => {
    const liar: Embedder = {
      name: 'liar-4',
      dims: 4,
      embed: async (texts) => texts.map(() => new Float32Array(3)),
    };
    await expect(cachedEmbedder(liar, tempDir()).embed(['a'], 'document')).rejects.toMatchObject({
      code: 'MODEL_FAILED',
    });
  });
});
