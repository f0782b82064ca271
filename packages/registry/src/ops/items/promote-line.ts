import { MemError, type FromLine } from '@mem/core';
import type { ItemStore, NodeRow } from '@mem/projector-sqlite';
import { citationsOf, noteOf, type LineNote } from '@mem/query';
import type { RegistryContext } from '../../context.js';
import { readLedger, type LedgerTarget } from '../memory-ledger.js';
import { requireNotForgotten, requireNotSuperseded, resolveRef } from '../memory-ref.js';

/** What a promotion writes: the line's text (the item's summary unless reworded) and its provenance. */
export interface PromotedLine {
  text: string;
  from_line: FromLine;
}

/**
 * The live memory line `ref` names (a sha, a sha prefix as `mem query` prints it, or its exact
 * text), ready to become a fact or rule (issue 13 §1). The ref is resolved against the log (as
 * forget and supersede resolve theirs); the line must be live in the item store too: a line
 * no live memory holds any more has no note to cite. Refused, nothing written: an unknown ref
 * (NOT_FOUND), a memory of several lines (INVALID_INPUT), a forgotten or superseded line
 * (CONFLICT, naming the tombstone or the successor).
 */
export async function promotedLine(
  ctx: RegistryContext,
  project: string,
  ref: string,
): Promise<PromotedLine> {
  const { items, node, note } = await liveLineOf(ctx, project, ref, 'from_line', 'promote');
  const citations = citationsOf(items, node, 'excerpt')
    .filter((c) => c.level === 'L0' || c.level === 'L1')
    .map((c) => ({ level: c.level as 'L0' | 'L1', sha256: c.sha256 }));
  return {
    text: node.text,
    from_line: {
      sha256: node.sha256,
      level: note.level,
      memory: note.sha256,
      note: note.path,
      citations,
    },
  };
}

/**
 * The live memory line `ref` names, its node and note in the caught-up item store; refused as
 * promotedLine says (NOT_FOUND, INVALID_INPUT, CONFLICT), naming `field` and what it would `verb`.
 * Shared by promotion and pins: both act on a line in force, never on a forgotten or replaced one.
 */
export async function liveLineOf(
  ctx: RegistryContext,
  project: string,
  ref: string,
  field: string,
  verb: string,
): Promise<{ items: ItemStore; node: NodeRow; note: LineNote }> {
  const ledger = await readLedger(ctx, project);
  const target = lineOf(resolveRef(ledger, project, ref, field), project, field);
  requireNotForgotten(ledger, project, target, field);
  requireNotSuperseded(ledger, project, target, field, verb);
  const items = (await ctx.stores.fresh()).items;
  const node = liveLine(items, project, target.sha256);
  const note = node ? noteOf(items, node) : null;
  if (!node || !note)
    throw new MemError(
      'CONFLICT',
      `${field}: line ${target.sha256} in ${project} is held by no live memory; nothing to ${verb}`,
      { field, project, target: target.sha256 },
    );
  return { items, node, note };
}

/** A one-line memory's sha is its line's too: that names the line. A memory of more lines is no line. */
function lineOf(target: LedgerTarget, project: string, field: string): LedgerTarget {
  if (target.kind === 'line') return target;
  const [only, ...more] = target.lines;
  if (only && more.length === 0 && only.sha256 === target.sha256)
    return { ...target, kind: 'line' };
  throw new MemError(
    'INVALID_INPUT',
    `${field}: ${target.sha256} in ${project} is a memory of ${target.lines.length} lines; name one of its lines`,
    { field, project, target: target.sha256, expected: 'a memory line' },
  );
}

/** The line node of `sha256`, L1 first, when it is live (not deleted, not superseded). */
function liveLine(items: ItemStore, project: string, sha256: string): NodeRow | undefined {
  for (const level of ['L1', 'L2'] as const) {
    const node = items.line(project, level, sha256);
    if (node && node.deleted_at === null && node.superseded_by === null) return node;
  }
  return undefined;
}
