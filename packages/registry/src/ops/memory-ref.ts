import { MemError, contentSha256 } from '@mem/core';
import type { LineRefReader, LineRefRow } from '@mem/projector-sqlite';
import type { LedgerTarget, MemoryLedger } from './memory-ledger.js';

/** The shortest sha prefix a ref may use: shorter ones name too much to be worth resolving. */
export const MIN_PREFIX = 6;
const PREFIX = new RegExp(`^[0-9a-f]{${MIN_PREFIX},64}$`);

/**
 * Resolves REF — a line or memory sha, a unique prefix of one, or the exact text of one (its
 * normal form) — to one target. Unknown is NOT_FOUND; a prefix or text naming several is
 * AMBIGUOUS_REF listing every candidate (sha and kind, never text), so the caller can pick one.
 */
export function resolveRef(
  ledger: MemoryLedger,
  project: string,
  ref: string,
  field = 'ref',
): LedgerTarget {
  return resolveAmong(
    project,
    ref,
    field,
    (prefix) => [...ledger.targets.values()].filter((target) => target.sha256.startsWith(prefix)),
    (sha256) => {
      const target = ledger.targets.get(sha256);
      return target ? [target] : [];
    },
  );
}

/**
 * resolveRef over the item store's line and memory nodes instead of a fold of the log: the
 * same refs, the same NOT_FOUND and AMBIGUOUS_REF, forgotten and superseded lines included
 * (a forgotten node keeps its sha). For an operation that needs only the sha (unpin).
 */
export function resolveStoredRef(
  items: LineRefReader,
  project: string,
  ref: string,
  field = 'ref',
): LineRefRow {
  return resolveAmong(
    project,
    ref,
    field,
    (prefix) => items.lineRefs(project, prefix),
    (sha256) => items.lineRefs(project, sha256),
  );
}

function resolveAmong<T extends { sha256: string; kind: string }>(
  project: string,
  ref: string,
  field: string,
  byPrefix: (prefix: string) => T[],
  bySha: (sha256: string) => T[],
): T {
  const trimmed = ref.trim();
  const lowered = trimmed.toLowerCase();
  let candidates: T[] = [];
  if (PREFIX.test(lowered)) candidates = byPrefix(lowered);
  if (candidates.length === 0) candidates = bySha(contentSha256(trimmed));
  if (candidates.length === 0) {
    throw new MemError(
      'NOT_FOUND',
      `${field}: no line or memory in ${project} has the sha, sha prefix or exact text given`,
      { field, project },
    );
  }
  if (candidates.length > 1) {
    const listed = candidates
      .map((c) => ({ sha256: c.sha256, kind: c.kind }))
      .sort((a, b) => a.sha256.localeCompare(b.sha256));
    throw new MemError(
      'AMBIGUOUS_REF',
      `${field}: ${trimmed} names ${listed.length} targets in ${project}: ${listed.map((c) => `${c.kind} ${c.sha256}`).join(', ')}; give more of the sha`,
      {
        field,
        project,
        candidates: listed,
      },
    );
  }
  return candidates[0]!;
}

/** Refuses (CONFLICT) a target a tombstone already covers: it, or the memory a line of it belongs to. */
export function requireNotForgotten(
  ledger: MemoryLedger,
  project: string,
  target: LedgerTarget,
  field = 'ref',
): void {
  const by = [target.sha256, ...(target.memory !== undefined ? [target.memory] : [])].find((sha) =>
    ledger.forgotten.has(sha),
  );
  if (by === undefined) return;
  const tombstone = ledger.tombstoneOf.get(by) ?? by;
  throw new MemError(
    'CONFLICT',
    `${field}: ${target.kind} ${target.sha256} in ${project} is already forgotten (tombstone ${tombstone}, seq ${ledger.forgotten.get(by)}); nothing was appended`,
    {
      field,
      project,
      target: target.sha256,
      tombstone,
    },
  );
}

/**
 * Refuses (CONFLICT) superseding a target already superseded: it left every read path, and its
 * replacement is what answers now. The error names the replacement (the end of the chain), the
 * one to supersede instead. Trigger: `mem supersede A --by C` after `A → B`. Why: the log's first
 * supersession is the one every projection keeps, so a second one was written and shown nowhere.
 * `verb` names what the caller would do to the replacement instead (confirm, pin, promote: each
 * acts on a line in force; a confirmation of a replaced line was written and read by nothing).
 */
export function requireNotSuperseded(
  ledger: MemoryLedger,
  project: string,
  target: LedgerTarget,
  field = 'ref',
  verb = 'supersede',
): void {
  const first = ledger.superseded.get(target.sha256);
  if (first === undefined) return;
  let current = first;
  const seen = new Set([target.sha256]);
  while (!seen.has(current) && ledger.superseded.has(current)) {
    seen.add(current);
    current = ledger.superseded.get(current)!;
  }
  throw new MemError(
    'CONFLICT',
    `${field}: ${target.kind} ${target.sha256} in ${project} is already superseded by ${first}; ${verb} its current replacement ${current} instead; nothing was appended`,
    { field, project, target: target.sha256, superseded_by: first, current },
  );
}

/**
 * Refuses (CONFLICT) a replacing text that was itself superseded: it left every read path, so
 * a target pointing to it would leave them too and nothing would answer in its place. Trigger:
 * `mem supersede B --by A` after `A → B` (A is in B's chain: both vanished from `mem query`,
 * and superseding A again named B itself as current). The error names the replacing text's
 * current replacement, and says when that is the target itself (a cycle).
 */
export function requireReplacementNotSuperseded(
  ledger: MemoryLedger,
  project: string,
  target: LedgerTarget,
  replacement: string,
): void {
  const first = ledger.superseded.get(replacement);
  if (first === undefined) return;
  let current = first;
  const seen = new Set([replacement]);
  while (!seen.has(current) && ledger.superseded.has(current)) {
    seen.add(current);
    current = ledger.superseded.get(current)!;
  }
  const inChain = seen.has(target.sha256) || current === target.sha256;
  throw new MemError(
    'CONFLICT',
    inChain
      ? `by: ${replacement} is already in the chain of ${target.kind} ${target.sha256} in ${project} (it was superseded, and ${target.sha256} replaces it): superseding by it would leave neither answering; nothing was appended`
      : `by: ${replacement} in ${project} is already superseded by ${first}; its current replacement is ${current}; nothing was appended`,
    {
      field: 'by',
      project,
      target: target.sha256,
      by: replacement,
      superseded_by: first,
      current,
      in_chain: inChain,
    },
  );
}
