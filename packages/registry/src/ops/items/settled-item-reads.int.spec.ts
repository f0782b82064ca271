import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Engine } from '@mem/engine';
import { projectorSqlite } from '@mem/projector-sqlite';
import { asRoot, tempDataRoot } from '../../../../../test/api/support.js';
import { testConfig } from '../../../../../test/support/test-config.js';
import { openRegistry } from '../../open.js';
import type { Registry } from '../../registry.js';

/*
 * Issue 15 §4: an item read of several statements must answer from one state of the item
 * store, never from two. find_items reads its page, awaits the page's cited sources, then reads
 * the terms each delivered item holds. Two registries on one root; the reader's check of the
 * fact's cited source is held (below) until the other registry's update (and its catch-up) has
 * landed. It was a FIFO until stop 30: a cited source is now read only when it is a regular
 * file, so a FIFO no longer blocks a read (cited-source-not-a-file.int.spec).
 */
const hold = vi.hoisted(() => ({
  next: undefined as undefined | { entered: () => void; released: Promise<void> },
}));
vi.mock('./source-check.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./source-check.js')>();
  return {
    ...actual,
    checkSource: async (...args: Parameters<typeof actual.checkSource>) => {
      const held = hold.next;
      if (held) {
        hold.next = undefined;
        held.entered();
        await held.released;
      }
      return actual.checkSource(...args);
    },
  };
});
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function registryOn(root: string): Promise<Registry> {
  const registry = await openRegistry({
    engine: new Engine({ root, projectors: [projectorSqlite] }),
    version: '0.0.0-test',
    config: testConfig(),
    runJobs: false,
  });
  cleanups.push(() => registry.close());
  return registry;
}

type Found = { items: { id: string; summary: string; matched_terms?: string[] }[] };

describe('an item read straddling another registry’s write', () => {
  it('find_items answers from one state: the matched terms are those of the summary it returns', async () => {
    const { root, cleanup } = tempDataRoot(['alpha']);
    cleanups.push(cleanup);
    // A write reads the file it cites (stop 32); its digest here is not the file's, so it is judged.
    writeFileSync(join(root, 'cited.txt'), 'cited\n');
    const writer = await registryOn(root);
    const { ids } = (await asRoot(writer, 'add_items', {
      project: 'alpha',
      items: [
        {
          type: 'fact',
          summary: 'Zebracorn builds cache their wheels',
          source_uri: 'cited.txt',
          source_sha256: '0'.repeat(64),
        },
      ],
    })) as { ids: string[] };
    const reader = await registryOn(root);
    // Warm: the reader's store is open and caught up before the read that is raced.
    await asRoot(reader, 'find_items', { projects: ['alpha'] });

    let entered!: () => void;
    let release!: () => void;
    const inTheRead = new Promise<void>((resolve) => (entered = resolve));
    hold.next = { entered, released: new Promise<void>((resolve) => (release = resolve)) };
    const found = asRoot(reader, 'find_items', {
      projects: ['alpha'],
      query: 'zebracorn wheels gallop',
      include_stale: true,
    }) as Promise<Found>;
    // The reader has read its page and waits on the cited source: it is inside its read.
    await inTheRead;
    await asRoot(writer, 'update_item', {
      project: 'alpha',
      id: ids[0],
      summary: 'Zebracorn horses gallop at dawn',
      reason: 'reworded',
    });
    release();

    const [item] = (await found).items;
    const words = new Set(item!.summary.toLowerCase().split(/\s+/));
    expect(item!.matched_terms!.every((term) => words.has(term))).toBe(true);
    expect(item).toMatchObject({
      summary: 'Zebracorn horses gallop at dawn',
      matched_terms: ['zebracorn', 'gallop'],
    });
  }, 120_000);
});
