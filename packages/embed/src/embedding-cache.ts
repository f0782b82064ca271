import {
  closeSync,
  existsSync,
  fstatSync,
  ftruncateSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { createPrivateFile, makePrivateDirectory, sha256Hex } from '@mem/core';

/*
 * One append-only file per embedder name and scope (its endpoint: two servers may serve
 * different weights under one model name): a header (magic, dims, name, scope) and fixed-size records
 * (32-byte sha256 of the text, dims float32, crc32 of both). The sha index is read at open; the
 * vectors are read on demand. A torn last record (a crash mid-append) is ignored and cut off
 * before the next append. A record whose crc does not match reads as a miss: the cache can
 * only ever make embedding faster, never change a vector. Floats are stored in the platform's
 * byte order (little-endian everywhere Node runs in practice); the file is a local cache, not an
 * exchange format.
 */

const MAGIC = Buffer.from('MEMEMBD1', 'latin1');
const SHA_BYTES = 32;
const CHUNK_RECORDS = 1024;

export class EmbeddingCache {
  readonly file: string;
  private readonly header: Buffer;
  private readonly recordBytes: number;
  private readonly index = new Map<string, number>();
  /** Bytes of the file already indexed (header included). */
  private indexed = 0;

  constructor(
    dir: string,
    name: string,
    private readonly dims: number,
    scope?: string,
  ) {
    this.file = join(dir, cacheFileName(name, scope));
    const nameBytes = Buffer.from(scope === undefined ? name : `${name}\n${scope}`, 'utf8');
    this.header = Buffer.alloc(MAGIC.length + 8 + nameBytes.length);
    MAGIC.copy(this.header, 0);
    this.header.writeUInt32LE(dims, MAGIC.length);
    this.header.writeUInt32LE(nameBytes.length, MAGIC.length + 4);
    nameBytes.copy(this.header, MAGIC.length + 8);
    this.recordBytes = SHA_BYTES + dims * 4 + 4;
  }

  /** Vectors for the shas the cache holds (hex sha → vector); others are absent. */
  get(shas: readonly string[]): Map<string, Float32Array> {
    this.refresh();
    const out = new Map<string, Float32Array>();
    const wanted = shas.filter((sha) => this.index.has(sha));
    if (wanted.length === 0) return out;
    const fd = openSync(this.file, 'r');
    try {
      const record = Buffer.alloc(this.recordBytes);
      for (const sha of wanted) {
        if (readSync(fd, record, 0, this.recordBytes, this.index.get(sha)!) !== this.recordBytes)
          continue;
        const vector = this.decode(record, sha);
        if (vector) out.set(sha, vector);
      }
    } finally {
      closeSync(fd);
    }
    return out;
  }

  /** Appends records in one write; a torn tail left by a crash is cut off first. */
  put(entries: readonly { sha: string; vector: Float32Array }[]): void {
    if (entries.length === 0) return;
    makePrivateDirectory(join(this.file, '..'));
    createPrivateFile(this.file);
    const fd = openSync(this.file, 'a+');
    try {
      const size = fstatSync(fd).size;
      const parts: Buffer[] = [];
      if (size < this.header.length) {
        if (size > 0) ftruncateSync(fd, 0);
        parts.push(this.header);
      } else {
        const aligned = size - ((size - this.header.length) % this.recordBytes);
        if (aligned !== size) ftruncateSync(fd, aligned);
      }
      for (const { sha, vector } of entries) parts.push(this.encode(sha, vector));
      const buffer = Buffer.concat(parts);
      let written = 0;
      while (written < buffer.length)
        written += writeSync(fd, buffer, written, buffer.length - written);
    } finally {
      closeSync(fd);
    }
  }

  /**
   * Drops the records of `shas` (a forgotten text's vectors, issue 12). Why a rewrite and a
   * rename rather than zeroing in place: the old file is unlinked whole, so no block of it is
   * ours to read back, and a reader holding the old index finds a new file and starts over. A
   * record another process appends between the read and the rename is lost: a cache miss, no more.
   */
  remove(shas: readonly string[]): void {
    this.refresh();
    const gone = new Set(shas.filter((sha) => this.index.has(sha)));
    if (gone.size === 0) return;
    const bytes = readFileSync(this.file);
    const kept: Buffer[] = [bytes.subarray(0, this.header.length)];
    for (
      let at = this.header.length;
      at + this.recordBytes <= bytes.length;
      at += this.recordBytes
    ) {
      if (!gone.has(bytes.toString('hex', at, at + SHA_BYTES)))
        kept.push(bytes.subarray(at, at + this.recordBytes));
    }
    const next = `${this.file}.${process.pid}.tmp`;
    createPrivateFile(next);
    writeFileSync(next, Buffer.concat(kept));
    renameSync(next, this.file);
    this.index.clear();
    this.indexed = 0;
  }

  /** Indexes records appended since the last look (by this process or another). */
  private refresh(): void {
    if (!existsSync(this.file)) {
      this.index.clear();
      this.indexed = 0;
      return;
    }
    const fd = openSync(this.file, 'r');
    let foreign = false;
    try {
      const size = fstatSync(fd).size;
      if (size < this.indexed) {
        // Truncated or replaced behind our back: start over.
        this.index.clear();
        this.indexed = 0;
      }
      if (this.indexed === 0 && size >= this.header.length) {
        const header = Buffer.alloc(this.header.length);
        readSync(fd, header, 0, header.length, 0);
        foreign = !header.equals(this.header);
        if (!foreign) this.indexed = this.header.length;
      }
      if (this.indexed > 0) this.indexRecords(fd, size);
    } finally {
      closeSync(fd);
    }
    // Not a cache of this embedder (a damaged file under our name): it is droppable, so drop it.
    if (foreign) unlinkSync(this.file);
  }

  private indexRecords(fd: number, size: number): void {
    const chunk = Buffer.alloc(this.recordBytes * CHUNK_RECORDS);
    while (this.indexed + this.recordBytes <= size) {
      const want = Math.min(
        chunk.length,
        Math.floor((size - this.indexed) / this.recordBytes) * this.recordBytes,
      );
      const records = Math.floor(readSync(fd, chunk, 0, want, this.indexed) / this.recordBytes);
      if (records === 0) return;
      for (let r = 0; r < records; r++) {
        const sha = chunk.toString('hex', r * this.recordBytes, r * this.recordBytes + SHA_BYTES);
        // The first record of a sha wins; a later duplicate (two writers raced) holds the same vector.
        if (!this.index.has(sha)) this.index.set(sha, this.indexed + r * this.recordBytes);
      }
      this.indexed += records * this.recordBytes;
    }
  }

  private encode(sha: string, vector: Float32Array): Buffer {
    const record = Buffer.alloc(this.recordBytes);
    record.write(sha, 0, SHA_BYTES, 'hex');
    Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).copy(record, SHA_BYTES);
    record.writeUInt32LE(crc32(record.subarray(0, this.recordBytes - 4)), this.recordBytes - 4);
    return record;
  }

  private decode(record: Buffer, sha: string): Float32Array | null {
    if (record.toString('hex', 0, SHA_BYTES) !== sha) return null;
    if (
      crc32(record.subarray(0, this.recordBytes - 4)) !== record.readUInt32LE(this.recordBytes - 4)
    )
      return null;
    const vector = new Float32Array(this.dims);
    Buffer.from(vector.buffer).set(record.subarray(SHA_BYTES, SHA_BYTES + this.dims * 4));
    return vector;
  }
}

/**
 * `<slug of name>.<12 hex of sha256(name, scope)>.vec`: readable, and distinct for names the slug
 * merges and for one name under two scopes. Without a scope the file is the one older versions wrote.
 */
export function cacheFileName(name: string, scope?: string): string {
  const slug = name.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 64);
  return `${slug}.${sha256Hex(scope === undefined ? name : `${name}\n${scope}`).slice(0, 12)}.vec`;
}
