const CANONICAL_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/iu;

/**
 * A set of entry ids that stays small: a canonical UUID is kept as a 52-bit hash of its 128 bits
 * instead of a 36-character string, in an open-addressing table of doubles outside V8's heap
 * (8 bytes a slot, at most half full): a multi-GB transcript's million uuids cost ~16 MB that no
 * garbage collection has to mark, not ~30 MB of heap numbers in a `Set`, which V8's heap growth
 * then multiplies. A false "seen" needs two of one source's uuids to collide in 52 bits: at a
 * million uuids the chance is about 1 in 10,000. Any other id is kept as is.
 */
export class UuidSet {
  private readonly strings = new Set<string>();
  private table = new Float64Array(1024);
  private size = 0;

  /** Adds `id`; true when it was already present. */
  seenBefore(id: string): boolean {
    if (CANONICAL_UUID.test(id)) return this.addHash(hashUuid(id));
    if (this.strings.has(id)) return true;
    this.strings.add(id);
    return false;
  }

  /** Bytes held outside V8's heap (the uuid table): a figure for the specs and the bench. */
  get tableBytes(): number {
    return this.table.byteLength;
  }

  /** Adds a hash (never 0: 0 marks an empty slot); true when it was already present. */
  private addHash(key: number): boolean {
    const slot = probe(this.table, key);
    if (this.table[slot] === key) return true;
    this.table[slot] = key;
    this.size += 1;
    if (this.size * 2 > this.table.length) this.grow();
    return false;
  }

  private grow(): void {
    const old = this.table;
    this.table = new Float64Array(old.length * 2);
    for (const key of old) if (key !== 0) this.table[probe(this.table, key)] = key;
  }
}

/** The slot holding `key`, or the empty slot where it goes (linear probing; the table is never full). */
function probe(table: Float64Array, key: number): number {
  const mask = table.length - 1;
  // The low 32 bits of the key pick the start: they mix all four words of the uuid.
  let slot = (key % 2 ** 32) & mask;
  while (table[slot] !== 0 && table[slot] !== key) slot = (slot + 1) & mask;
  return slot;
}

/** Two independent 32-bit mixes of the uuid's four 32-bit words, joined to 52 bits (never 0). */
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
  return (a >>> 0) * 2 ** 20 + ((b >>> 0) & 0xfffff) || 1;
}
