/**
 * Lines encoded to UTF-8 straight into one growing buffer, each followed by `\n`. Why: encoding
 * a line for its hash and again for the write (and joining the lines first) did the work twice.
 */
export class LineBuffer {
  #buffer: Buffer;
  #used = 0;

  constructor(capacity: number) {
    this.#buffer = Buffer.allocUnsafe(Math.max(capacity, 64));
  }

  /** Appends `line` and its `\n`; returns the line's bytes (without `\n`), valid until the next push. */
  push(line: string): Buffer {
    // A UTF-16 code unit is at most 3 UTF-8 bytes (a surrogate pair, 2 units, is 4), so this
    // much room means write never truncates.
    const room = line.length * 3 + 1;
    if (this.#used + room > this.#buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.#used + room, this.#buffer.length * 2));
      this.#buffer.copy(grown, 0, 0, this.#used);
      this.#buffer = grown;
    }
    const start = this.#used;
    const end = start + this.#buffer.write(line, start, 'utf8');
    this.#buffer[end] = 0x0a;
    this.#used = end + 1;
    return this.#buffer.subarray(start, end);
  }

  /** Bytes pushed so far. */
  get length(): number {
    return this.#used;
  }

  /** Every line pushed so far, each ending in `\n`. */
  bytes(): Buffer {
    return this.#buffer.subarray(0, this.#used);
  }
}
