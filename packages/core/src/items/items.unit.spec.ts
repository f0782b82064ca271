import { describe, expect, it } from 'vitest';
import { payloadSchema } from '../events/catalogue.js';
import { isMemError } from '../errors.js';
import {
  FIELD_TYPES,
  ITEM_FIELDS,
  ITEM_TYPES,
  fieldApplies,
  itemId,
  type ItemField,
  type ItemType,
} from './model.js';
import { itemDraftIssues } from './draft.js';
import { requireTransition, statusesOf, type ItemStatus } from './status.js';

const SAMPLE: Record<ItemField, unknown> = {
  detail: 'why it matters',
  tags: ['infra'],
  status: 'open',
  due: '2026-02-01T00:00:00Z',
  remind_at: '2026-02-01T00:00:00Z',
  valid_until: '2026-02-01T00:00:00Z',
  review_after: '2026-02-01T00:00:00Z',
  source_uri: 'docs/runbook.md',
  source_sha256: 'a'.repeat(64),
  parent: 'it-000000000000',
  anchors: ['it-000000000000'],
};

/** A cited source is a path and its digest together: where one applies, the other rides along. */
const PARTNER: Partial<Record<ItemField, Record<string, unknown>>> = {
  source_uri: { source_sha256: SAMPLE.source_sha256 },
  source_sha256: { source_uri: SAMPLE.source_uri },
};

function base(type: ItemType): Record<string, unknown> {
  return type === 'reminder' ? { remind_at: '2026-02-01T00:00:00Z' } : {};
}

describe('item fields per type', () => {
  for (const type of ITEM_TYPES) {
    for (const field of ITEM_FIELDS) {
      const applies = fieldApplies(field, type);
      it(`${field} on a ${type} is ${applies ? 'accepted' : 'refused, naming the field and the type'}`, () => {
        const issues = itemDraftIssues(type, {
          ...base(type),
          ...(applies ? PARTNER[field] : {}),
          summary: 's',
          [field]: SAMPLE[field],
        });
        if (applies) expect(issues).toEqual([]);
        else {
          expect(issues).toEqual([
            {
              path: [field],
              message: expect.stringContaining(`${field} does not apply to a ${type}`),
              details: {
                expected: `absent on a ${type}`,
                type,
                applies_to: ITEM_TYPES.filter((t) => fieldApplies(field, t)),
              },
            },
          ]);
          // The catalogue refuses the same payload, so `mem log append` cannot store it either.
          const parsed = payloadSchema.safeParse({
            type: 'item_added',
            item_type: type,
            ...base(type),
            summary: 's',
            [field]: SAMPLE[field],
          });
          expect(parsed.success).toBe(false);
          expect(parsed.error?.issues.map((i) => i.path.join('.'))).toContain(field);
        }
      });
    }
  }

  it('detail is refused on a rule and valid_until on a task, as the seed says', () => {
    expect(FIELD_TYPES.detail).not.toContain('rule');
    expect(FIELD_TYPES.valid_until).not.toContain('task');
  });

  it('a reminder without remind_at is refused', () => {
    expect(itemDraftIssues('reminder', { summary: 's' })).toEqual([
      { path: ['remind_at'], message: expect.any(String) },
    ]);
  });

  it('a new item cannot start resolved, and tags and anchors are each given once', () => {
    expect(itemDraftIssues('task', { summary: 's', status: 'done' }).map((i) => i.path)).toEqual([
      ['status'],
    ]);
    expect(itemDraftIssues('fact', { summary: 's', tags: ['a', 'a'] }).map((i) => i.path)).toEqual([
      ['tags'],
    ]);
  });

  it('ids are derived from project and seq, never random', () => {
    expect(itemId('demo', 7)).toBe(itemId('demo', 7));
    expect(itemId('demo', 7)).not.toBe(itemId('demo', 8));
    expect(itemId('demo', 7)).not.toBe(itemId('other', 7));
    expect(itemId('demo', 7)).toMatch(/^it-[0-9a-f]{12}$/);
  });
});

const LEGAL: Record<'task' | 'thread' | 'reminder', Record<string, readonly ItemStatus[]>> = {
  task: {
    proposed: ['open', 'in_progress', 'done', 'dropped'],
    open: ['proposed', 'in_progress', 'done', 'dropped'],
    in_progress: ['open', 'done', 'dropped'],
    done: [],
    dropped: [],
  },
  thread: { open: ['done', 'dropped'], done: [], dropped: [] },
  reminder: { open: ['done', 'dropped'], done: [], dropped: [] },
};

function codeOf(run: () => void): string | null {
  try {
    run();
    return null;
  } catch (error) {
    return isMemError(error) ? error.code : 'untyped';
  }
}

describe('status machines', () => {
  for (const [type, moves] of Object.entries(LEGAL) as [
    keyof typeof LEGAL,
    Record<string, readonly ItemStatus[]>,
  ][]) {
    it(`a ${type} has exactly the statuses ${Object.keys(moves).join(', ')}`, () => {
      expect([...statusesOf(type)!].sort()).toEqual(Object.keys(moves).sort());
    });
    for (const from of Object.keys(moves) as ItemStatus[]) {
      for (const to of Object.keys(moves) as ItemStatus[]) {
        if (from === to) continue;
        const legal = moves[from]!.includes(to);
        it(`a ${type} ${legal ? 'may' : 'may not'} move ${from} → ${to}`, () => {
          expect(codeOf(() => requireTransition('it-000000000000', type, from, to))).toBe(
            legal ? null : 'CONFLICT',
          );
        });
      }
    }
  }

  it('a status a type does not have is INVALID_INPUT, and knowledge has no status', () => {
    expect(
      codeOf(() => requireTransition('it-000000000000', 'thread', 'open', 'in_progress')),
    ).toBe('INVALID_INPUT');
    expect(codeOf(() => requireTransition('it-000000000000', 'fact', null, 'done'))).toBe(
      'INVALID_INPUT',
    );
  });
});
