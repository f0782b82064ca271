import { MemError, itemId, type ItemType } from '@mem/core';
import { unanchored, type ItemLedger } from './ledger.js';
import { knowledgeEntry, listBytes, type KnowledgeEntry } from './slim.js';

/** How many retirement candidates a refusal names. */
const CANDIDATES = 5;

/**
 * The operations that take an always-loaded item out of T0 or shrink it, each as its command
 * (`ID` the candidate, `THREAD` the thread or task it is about). Archive files it away (orient
 * stops loading it, and the budget stops counting it); an anchor loads it only when its thread
 * is opened; a shorter summary costs fewer bytes. Deleting is admin-only, so it is not offered.
 */
function nextActions(project: string, id: string) {
  // A project name is a plain word (core's projectNameSchema): it needs no shell quoting.
  const p = project;
  return [
    { action: 'archive', command: `mem items attention ${id} archive --project ${p}` },
    {
      action: 'anchor',
      command: `mem items relate ${id} --relation anchor --target THREAD --project ${p}`,
    },
    {
      action: 'update',
      command: `mem items update ${id} --summary TEXT --reason TEXT --project ${p}`,
    },
  ];
}

/** One always-loaded entry a write adds or rewrites (`id` absent for a new item). */
export interface KnowledgeChange {
  type: ItemType;
  id?: string;
  summary: string;
}

/**
 * BUDGET_EXCEEDED unless the project's unanchored rules and facts, after `changes`, each fit
 * their cap (seed 000 §5.2). Trigger: a write would grow an always-loaded section past it. Why:
 * those sections are never cut at read, so the cap has to hold at write. Outcome: refused with
 * the cap, the current bytes and count, the oldest members as candidates and the commands that
 * make room (archive, anchor, a shorter summary); a write
 * that does not grow an over-full section (the cap lowered since) passes.
 */
export function requireKnowledgeRoom(
  ledger: ItemLedger,
  caps: { rules: number; facts: number },
  changes: readonly KnowledgeChange[],
): void {
  for (const [type, cap] of [
    ['rule', caps.rules],
    ['fact', caps.facts],
  ] as const) {
    const mine = changes.filter((c) => c.type === type);
    if (mine.length === 0) continue;
    const members = unanchored(ledger, type);
    const before: KnowledgeEntry[] = members.map(knowledgeEntry);
    const rewritten = new Map(mine.filter((c) => c.id !== undefined).map((c) => [c.id!, c]));
    // A new item's id is not known before its append; every id has the same length, so a
    // placeholder costs exactly what the real one will.
    const placeholder = itemId(ledger.project, 0);
    const after = [
      ...members.map((m) =>
        knowledgeEntry({ ...m, summary: rewritten.get(m.id)?.summary ?? m.summary }),
      ),
      ...mine
        .filter((c) => c.id === undefined)
        .map((c) =>
          knowledgeEntry({ id: placeholder, project: ledger.project, summary: c.summary }),
        ),
    ];
    const bytes = listBytes(before);
    const needed = listBytes(after);
    if (needed <= cap || needed <= bytes) continue;
    const section = `${type}s`;
    const candidates = members.slice(0, CANDIDATES).map((m) => ({
      id: m.id,
      summary: m.summary,
      created_ts: m.created_ts,
    }));
    const oldest = candidates[0]?.id ?? 'ID';
    const next_actions = nextActions(ledger.project, oldest);
    throw new MemError(
      'BUDGET_EXCEEDED',
      `${section}: the always-loaded ${section} of project ${JSON.stringify(ledger.project)} would take ${needed} bytes, over their cap of ${cap} (${members.length} ${section}, ${bytes} bytes now). Anchor it to a thread or task so it loads only when that is opened, or make room among the oldest (${candidates.map((c) => c.id).join(', ') || 'none'}): archive one (${next_actions[0]!.command}), anchor one (${next_actions[1]!.command}) or shorten one (${next_actions[2]!.command})`,
      {
        section,
        project: ledger.project,
        cap,
        bytes,
        count: members.length,
        needed,
        candidates,
        suggestion: 'anchor',
        next_actions,
      },
    );
  }
}
