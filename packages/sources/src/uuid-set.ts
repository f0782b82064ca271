const CANONICAL_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/iu;

/**
 * A set of entry ids that stays small: a canonical UUID is kept as a 52-bit hash of its 128 bits
 * instead of a 36-character string, so deduping a multi-GB transcript's uuids costs tens of MB,
 * not hundreds. A false "seen" needs two of one source's uuids to collide in 52 bits: at a
 * million uuids the chance is about 1 in 10,000. Any other id is kept as is.
 */
export class UuidSet {
  private readonly numbers = new Set<number>();
  private readonly strings = new Set<string>();

  /** Adds `id`; true when it was already present. */
  seenBefore(id: string): boolean {
    if (CANONICAL_UUID.test(id)) {
      const key = hashUuid(id);
      if (this.numbers.has(key)) return true;
      this.numbers.add(key);
      return false;
    }
    if (this.strings.has(id)) return true;
    this.strings.add(id);
    return false;
  }
}

/** Two independent 32-bit mixes of the uuid's four 32-bit words, joined to 52 bits. */
function hashUuid(id: string): number {
  const hex = id.replaceAll('-', '');
  let a = 0x811c9dc5;
  let b = 0x9e3779b9;
  for (let i = 0; i < 32; i += 8) {
    const word = Number.parseInt(hex.slice(i, i + 8), 16);
    a = Math.imul(a ^ word, 0x85ebca6b);
    a ^= a >>> 13;
    b = Math.imul(b ^ word, 0xc2b2ae35);
    b ^= b >>> 16;
  }
  return (a >>> 0) * 2 ** 20 + ((b >>> 0) & 0xfffff);
}
