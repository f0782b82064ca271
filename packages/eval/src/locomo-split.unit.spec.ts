import { describe, expect, it } from 'vitest';
import { isMemError } from '@mem/core';
import type { LocomoConversation } from './locomo.js';
import { locomoSplit } from './locomo-split.js';

const conversation = (sampleId: string): LocomoConversation => ({
  sampleId,
  speakers: ['A', 'B'],
  sessions: [],
  questions: [],
});
// Out of id order on purpose: the split is by id, each half keeps the file's order.
const all = ['conv-43', 'conv-26', 'conv-50', 'conv-30', 'conv-41'].map(conversation);
const ids = (cs: readonly LocomoConversation[]) => cs.map((c) => c.sampleId);

describe('locomoSplit', () => {
  it('puts the lower half of the conversation ids in tuning and the rest in held-out', () => {
    expect(ids(locomoSplit(all, 'tuning'))).toEqual(['conv-26', 'conv-30', 'conv-41']);
    expect(ids(locomoSplit(all, 'held-out'))).toEqual(['conv-43', 'conv-50']);
    expect(ids(locomoSplit(all, 'all'))).toEqual(ids(all));
  });

  it('refuses an unknown split with a typed error', () => {
    let caught: unknown;
    try {
      locomoSplit(all, 'test' as 'tuning');
    } catch (error) {
      caught = error;
    }
    expect(isMemError(caught) && caught.code).toBe('INVALID_INPUT');
  });
});
