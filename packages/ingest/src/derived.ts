import { normalizeText } from '@mem/core';

/** Words per shingle: long enough that ordinary prose rarely repeats one by chance. */
const SHINGLE = 8;
/** A chunk is derived when this share of its shingles repeats a registered artifact. */
const DERIVED_SHARE = 0.5;

/**
 * The registered derived artifacts of a project (reference texts now, emitted skills later)
 * as a set of word-shingle hashes. A chunk that mostly repeats them is tagged derived and never
 * reaches the gate: otherwise memory would learn the manual, or its own skills, as evidence.
 */
export class DerivedManifest {
  private readonly shingles = new Set<number>();
  artifacts = 0;

  register(text: string): void {
    this.artifacts += 1;
    for (const hash of shingleHashes(text)) this.shingles.add(hash);
  }

  /** True when at least half of the chunk's shingles come from registered artifacts. */
  matches(text: string): boolean {
    if (this.shingles.size === 0) return false;
    let total = 0;
    let hits = 0;
    for (const hash of shingleHashes(text)) {
      total += 1;
      if (this.shingles.has(hash)) hits += 1;
    }
    return total > 0 && hits / total >= DERIVED_SHARE;
  }
}

function* shingleHashes(text: string): Generator<number> {
  const words = normalizeText(text)
    .split(' ')
    .filter((w) => w !== '');
  if (words.length === 0) return;
  if (words.length < SHINGLE) {
    yield fnv1a(words.join(' '));
    return;
  }
  for (let i = 0; i + SHINGLE <= words.length; i++)
    yield fnv1a(words.slice(i, i + SHINGLE).join(' '));
}

/** 32-bit FNV-1a: a fast, stable hash for set membership (collisions only cost a false match). */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
