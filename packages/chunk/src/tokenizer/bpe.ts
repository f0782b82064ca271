import { byteLevelAlphabet } from './byte-level.js';

/*
 * Byte-level BPE that only counts. Merges are applied lowest rank first, leftmost first on a
 * tie, which is what Hugging Face tokenizers (and the reference library) do. Only the merge
 * list is needed: the count is the number of symbols left when no adjacent pair has a rank.
 *
 * Symbols are interned to small integers as they are first made, and each adjacent pair's
 * (rank, merged symbol) is memoised under a numeric key, so a merge step is two integer map
 * lookups instead of building and hashing a string.
 */

export interface BpeModel {
  /** `"a b"` strings (tokenizers < 0.20) or `[a, b]` pairs, in rank order. */
  merges: readonly (string | readonly [string, string])[];
}

const NO_MERGE = -1;

export class BpeCounter {
  /** `"left right"` -> rank. Byte-level symbols never contain U+0020, so the key is unambiguous. */
  readonly #ranks = new Map<string, number>();
  readonly #symbolIds = new Map<string, number>();
  readonly #symbols: string[] = [];
  /**
   * Per left symbol: right symbol -> pair slot. Slots index #pairRank / #pairMerged. Nested
   * maps keep every key and value a small integer (a packed 2^40 key would box a double on
   * each lookup, which is what made a flat map slow).
   */
  readonly #pairs: (Map<number, number> | undefined)[] = [];
  #pairRank = new Int32Array(1024);
  #pairMerged = new Int32Array(1024);
  #pairCount = 0;
  readonly #utf8 = new TextEncoder();
  #bytes = new Uint8Array(1024);
  #ids = new Int32Array(256);
  #pairRanks = new Float64Array(256);

  constructor(model: BpeModel) {
    const merges = model.merges;
    for (let rank = 0; rank < merges.length; rank++) {
      const merge = merges[rank] as string | readonly [string, string];
      const key = typeof merge === 'string' ? merge : `${merge[0]} ${merge[1]}`;
      // The first (lowest-rank) occurrence of a pair wins, as in tokenizers.
      if (!this.#ranks.has(key)) this.#ranks.set(key, rank);
    }
    for (const symbol of byteLevelAlphabet()) this.#intern(symbol); // byte b is symbol id b
  }

  /** Number of BPE tokens the UTF-8 bytes of `piece` (one pre-token) merge into. */
  count(piece: string): number {
    const n = this.#encodeUtf8(piece);
    if (n <= 1) return n;
    if (this.#ids.length < n) {
      this.#ids = new Int32Array(n * 2);
      this.#pairRanks = new Float64Array(n * 2);
    }
    const ids = this.#ids;
    const ranks = this.#pairRanks;
    const bytes = this.#bytes;
    for (let i = 0; i < n; i++) ids[i] = bytes[i] as number;
    for (let i = 0; i + 1 < n; i++)
      ranks[i] = this.#rankOf(this.#pair(ids[i] as number, ids[i + 1] as number));
    let len = n;
    for (;;) {
      let best = -1;
      let bestRank = Infinity;
      for (let i = 0; i + 1 < len; i++) {
        const r = ranks[i] as number;
        if (r < bestRank) {
          bestRank = r;
          best = i;
        }
      }
      if (best < 0) return len;
      ids[best] = this.#pairMerged[
        this.#pair(ids[best] as number, ids[best + 1] as number)
      ] as number;
      ids.copyWithin(best + 1, best + 2, len);
      ranks.copyWithin(best + 1, best + 2, len - 1);
      len -= 1;
      if (best > 0)
        ranks[best - 1] = this.#rankOf(this.#pair(ids[best - 1] as number, ids[best] as number));
      if (best + 1 < len)
        ranks[best] = this.#rankOf(this.#pair(ids[best] as number, ids[best + 1] as number));
    }
  }

  #rankOf(slot: number): number {
    const rank = this.#pairRank[slot] as number;
    return rank === NO_MERGE ? Infinity : rank;
  }

  /** The memo slot of the pair (left, right), computed on first sight. */
  #pair(left: number, right: number): number {
    let byRight = this.#pairs[left];
    if (byRight === undefined) {
      byRight = new Map<number, number>();
      this.#pairs[left] = byRight;
    }
    let slot = byRight.get(right);
    if (slot === undefined) {
      const l = this.#symbols[left] as string;
      const r = this.#symbols[right] as string;
      const rank = this.#ranks.get(`${l} ${r}`);
      slot = this.#pairCount++;
      if (slot >= this.#pairRank.length) {
        const rankGrown = new Int32Array(slot * 2);
        rankGrown.set(this.#pairRank);
        this.#pairRank = rankGrown;
        const mergedGrown = new Int32Array(slot * 2);
        mergedGrown.set(this.#pairMerged);
        this.#pairMerged = mergedGrown;
      }
      this.#pairRank[slot] = rank ?? NO_MERGE;
      this.#pairMerged[slot] = rank === undefined ? NO_MERGE : this.#intern(l + r);
      byRight.set(right, slot);
    }
    return slot;
  }

  #intern(symbol: string): number {
    let id = this.#symbolIds.get(symbol);
    if (id === undefined) {
      id = this.#symbols.length;
      this.#symbols.push(symbol);
      this.#symbolIds.set(symbol, id);
    }
    return id;
  }

  #encodeUtf8(piece: string): number {
    // At most 3 bytes per UTF-16 unit.
    if (this.#bytes.length < piece.length * 3) this.#bytes = new Uint8Array(piece.length * 6);
    const bytes = this.#bytes;
    // ASCII needs no encoder call (most pieces are ASCII; the call costs more than the loop).
    for (let i = 0; i < piece.length; i++) {
      const c = piece.charCodeAt(i);
      if (c >= 0x80) return this.#utf8.encodeInto(piece, bytes).written;
      bytes[i] = c;
    }
    return piece.length;
  }
}
