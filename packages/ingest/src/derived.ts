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
  /** Each shingle → the first artifact that registered it (its label), to name a match. */
  private readonly shingles = new Map<number, string>();
  artifacts = 0;

  register(text: string, label = ''): void {
    this.artifacts += 1;
    for (const hash of shingleHashes(text))
      if (!this.shingles.has(hash)) this.shingles.set(hash, label);
  }

  /** True when at least half of the chunk's shingles come from registered artifacts. */
  matches(text: string): boolean {
    return this.matchedArtifact(text) !== null;
  }

  /**
   * The label of the artifact a derived text repeats most (null when the text is not derived):
   * the same share test as `matches`, so an audit names exactly what the ingest would have tagged.
   */
  matchedArtifact(text: string): string | null {
    if (this.shingles.size === 0) return null;
    let total = 0;
    let hits = 0;
    const byArtifact = new Map<string, number>();
    for (const hash of shingleHashes(text)) {
      total += 1;
      const label = this.shingles.get(hash);
      if (label === undefined) continue;
      hits += 1;
      byArtifact.set(label, (byArtifact.get(label) ?? 0) + 1);
    }
    if (total === 0 || hits / total < DERIVED_SHARE) return null;
    let best = '';
    let most = 0;
    for (const [label, count] of byArtifact) if (count > most) [best, most] = [label, count];
    return best;
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
