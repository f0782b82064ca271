import { rm } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * What under `.mem/` may hold a copy of purged text and is not a projection the purge resets:
 * the embedding cache (keyed by text hash, but it stores the vectors of the old text), the
 * recorded chain heads (the head line's old hash; the replay records the new one) and the saved
 * append folds (the purged text's sha and the tombstones as they were: append-fold-file.ts).
 * Known gap: another process that read the log before the purge may save its fold after this
 * ran. That file holds hashes, never text, and the next load discards and removes it (the log
 * no longer reads on from its head).
 */
export async function clearCopies(stateDir: string): Promise<void> {
  await rm(join(stateDir, 'cache', 'embeddings'), { recursive: true, force: true });
  await rm(join(stateDir, 'chain-heads'), { recursive: true, force: true });
  await rm(join(stateDir, 'append-folds'), { recursive: true, force: true });
}
