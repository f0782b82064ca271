import { z } from 'zod';
import { MemError, fieldApplies, isKnowledge, itemId, type ItemType } from '@mem/core';

/*
 * A parent and its children in one add_items batch (issue 13 §1): an item names itself with
 * `ref`, and a later item of the same batch names it with `parent_ref` or `anchor_refs`. An id
 * is derived from its item_added event's seq, so the refs become ids only once the batch's first
 * seq is known: the batch is built for the head it read and appended with that expectation
 * (engine AppendOptions.firstSeq), rebuilt if another writer got there first.
 */

/** A batch-local name for an item, never written to the log. */
export const batchRefField = z
  .string()
  .regex(/^[A-Za-z0-9._-]{1,64}$/, 'expected a batch ref: 1-64 of [A-Za-z0-9._-]');

export const batchRefsShape = {
  /** This item's name within the batch, for a later item's parent_ref or anchor_refs. */
  ref: batchRefField.optional(),
  /** The parent: an earlier item of this batch, by its ref. */
  parent_ref: batchRefField.optional(),
  /** Anchors that are earlier items of this batch, by their refs (beside `anchors`, by id). */
  anchor_refs: z.array(batchRefField).max(32, 'expected at most 32 anchor refs').optional(),
};

interface RefDraft {
  type: ItemType;
  parent?: string | undefined;
  anchors?: string[] | undefined;
  ref?: string | undefined;
  parent_ref?: string | undefined;
  anchor_refs?: string[] | undefined;
}

const refused = (field: string, message: string, details: Record<string, unknown> = {}) =>
  new MemError('INVALID_INPUT', `${field}: ${message}`, { field, ...details });

/**
 * Checks every ref of the batch, before anything is read or written: each `ref` once, each
 * parent_ref and anchor_ref naming an earlier item (so a later, unknown or own ref — and with it
 * any cycle — is refused), the relation's types (a parent and an anchor target are work items;
 * only work has a parent, only knowledge anchors), never a parent by id and by ref at once.
 * INVALID_INPUT names `items[i].field`.
 */
export function checkBatchRefs(drafts: readonly RefDraft[]): void {
  const earlier = new Map<string, number>();
  drafts.forEach((draft, i) => {
    const target = (ref: string, field: string, relation: string): void => {
      const j = earlier.get(ref);
      if (j === undefined)
        throw refused(
          field,
          drafts.some((d, k) => k >= i && d.ref === ref)
            ? `"${ref}" is not an earlier item of this batch: an item names only the items before it`
            : `no earlier item of this batch has ref "${ref}"`,
          { ref },
        );
      const type = drafts[j]!.type;
      if (isKnowledge(type))
        throw refused(
          field,
          `"${ref}" (items[${j}]) is a ${type}; a ${relation} is a work item (task, thread, reminder)`,
          { ref, type },
        );
    };
    if (draft.parent_ref !== undefined) {
      const field = `items[${i}].parent_ref`;
      if (!fieldApplies('parent', draft.type))
        throw refused(field, `a ${draft.type} has no parent: only work items do`);
      if (draft.parent !== undefined)
        throw refused(field, 'expected parent or parent_ref, not both: an item has one parent');
      target(draft.parent_ref, field, 'parent');
    }
    (draft.anchor_refs ?? []).forEach((ref, k) => {
      const field = `items[${i}].anchor_refs[${k}]`;
      if (!fieldApplies('anchors', draft.type))
        throw refused(field, `a ${draft.type} has no anchors: only knowledge (rule, fact) does`);
      if ((draft.anchor_refs ?? []).indexOf(ref) !== k)
        throw refused(field, `expected each of anchor_refs once ("${ref}" twice)`);
      target(ref, field, 'anchor');
    });
    if ((draft.anchors ?? []).length + (draft.anchor_refs ?? []).length > 32)
      throw refused(`items[${i}].anchor_refs`, 'expected at most 32 anchors with anchor_refs');
    if (draft.ref !== undefined) {
      if (earlier.has(draft.ref))
        throw refused(
          `items[${i}].ref`,
          `"${draft.ref}" is already items[${earlier.get(draft.ref)!}].ref: a ref names one item`,
          { ref: draft.ref },
        );
      earlier.set(draft.ref, i);
    }
  });
}

/** Whether any item of the batch names another by ref: only then do its ids depend on its seqs. */
export function usesBatchRefs(drafts: readonly RefDraft[]): boolean {
  return drafts.some((d) => d.parent_ref !== undefined || (d.anchor_refs ?? []).length > 0);
}

/**
 * The drafts as the log holds them, for a batch whose first item_added gets `firstSeq`: each
 * ref replaced by the id that seq gives (one item_added per draft, in order), the ref fields
 * dropped. The refs must have passed checkBatchRefs.
 */
export function resolveBatchRefs<D extends RefDraft>(
  project: string,
  drafts: readonly D[],
  firstSeq: number,
): Omit<D, 'ref' | 'parent_ref' | 'anchor_refs'>[] {
  const ids = new Map<string, string>();
  drafts.forEach((d, i) => {
    if (d.ref !== undefined) ids.set(d.ref, itemId(project, firstSeq + i));
  });
  return drafts.map(({ ref: _ref, parent_ref, anchor_refs, ...draft }) => {
    const anchors = [...(draft.anchors ?? []), ...(anchor_refs ?? []).map((r) => ids.get(r)!)];
    return {
      ...draft,
      ...(parent_ref !== undefined ? { parent: ids.get(parent_ref)! } : {}),
      ...(anchors.length > 0 ? { anchors } : {}),
    };
  });
}
