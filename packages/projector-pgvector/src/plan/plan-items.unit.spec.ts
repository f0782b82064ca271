import { describe, expect, it } from 'vitest';
import { itemId, sha256Hex } from '@mem/core';
import { chainEvents } from '../../test/support.js';
import { itemTextsAfter } from '../apply/item-texts.js';
import type { SeqWrite } from '../apply/run-writes.js';
import { PGVECTOR_HANDLES, planEvent } from './plan-event.js';

const events = (...payloads: Parameters<typeof chainEvents>[1]) =>
  chainEvents('demo', payloads).map((c) => c.event);
const id = itemId('demo', 1);

describe('planEvent on curated items', () => {
  it('plans an added item under the node sha the item store gives it, and a text update as its summary and detail', () => {
    const [added, reworded, dated] = events(
      {
        type: 'item_added',
        item_type: 'fact',
        summary: 'Kong buffers bodies',
        detail: 'over 10KB',
      },
      { type: 'item_updated', item: id, summary: 'Kong buffers large bodies', reason: 'x' },
      { type: 'item_updated', item: id, review_after: '2030-01-01T00:00:00Z', reason: 'y' },
    );
    expect(planEvent(added!)).toEqual([
      {
        statement: 'insertItem',
        params: {
          project: 'demo',
          id,
          sha256: sha256Hex('demo\u00001'),
          summary: 'Kong buffers bodies',
          detail: 'over 10KB',
          seq: 1,
        },
      },
    ]);
    expect(planEvent(reworded!)).toEqual([
      {
        statement: 'updateItemText',
        params: { project: 'demo', id, summary: 'Kong buffers large bodies', detail: null },
      },
    ]);
    // No text moved: nothing to write or embed.
    expect(planEvent(dated!)).toEqual([]);
  });

  it('plans archive as hidden, any other tier as shown, a delete as its flag; status, relations and pins are not routed here', () => {
    const [, archive, reference, remove] = events(
      { type: 'item_added', item_type: 'task', summary: 'Ship it' },
      { type: 'item_attention_set', item: id, attention: 'archive' },
      { type: 'item_attention_set', item: id, attention: 'reference' },
      { type: 'item_deleted', item: id, reason: 'wrong' },
    );
    expect(planEvent(archive!)).toEqual([
      { statement: 'setItemAttention', params: { project: 'demo', id, archived: true } },
    ]);
    expect(planEvent(reference!)).toEqual([
      { statement: 'setItemAttention', params: { project: 'demo', id, archived: false } },
    ]);
    expect(planEvent(remove!)).toEqual([
      { statement: 'deleteItem', params: { project: 'demo', id, ts: remove!.ts } },
    ]);
    for (const type of ['item_resolved', 'item_related', 'item_pinned', 'item_unpinned'])
      expect(PGVECTOR_HANDLES).not.toContain(type);
  });
});

describe('itemTextsAfter', () => {
  it('folds the batch over the stored rows: each write carries the text it leaves, an unknown item none', () => {
    const writes: SeqWrite[] = events(
      { type: 'item_added', item_type: 'fact', summary: 'A' },
      { type: 'item_updated', item: id, detail: 'why A', reason: 'x' },
      { type: 'item_updated', item: itemId('demo', 9), summary: 'B2', reason: 'x' },
      { type: 'item_updated', item: itemId('demo', 7), detail: 'D', reason: 'x' },
    ).flatMap((event) => planEvent(event).map((write) => ({ seq: event.seq, write })));
    const texts = itemTextsAfter(
      writes,
      new Map([[itemId('demo', 9), { summary: 'B', detail: 'kept' }]]),
    );
    expect(writes.map(({ write }) => texts.get(write as never))).toEqual([
      'A',
      'A\n\nwhy A',
      'B2\n\nkept',
      null,
    ]);
  });
});
