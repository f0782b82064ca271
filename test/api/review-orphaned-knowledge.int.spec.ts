import { afterEach, describe, expect, it } from 'vitest';
import { isMemError } from '@mem/core';
import type { Registry } from '@mem/registry';
import { asRoot, registryAt, tempDataRoot } from './support.js';

/*
 * Stop 31 (board "Items"): since stop 30 removing or deleting the last live anchor of a fact or
 * rule is refused, but a store written before may hold knowledge whose every anchor is deleted
 * — loaded by no orient (T0 leaves anchored knowledge to its threads) and no open (its threads
 * are gone) — and nothing listed it. `mem review scan` now opens an `orphaned_knowledge` finding
 * per such item, naming it and its deleted anchors. The deletions below are appended to the log
 * as such a store holds them: delete_items refuses them now.
 */
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

type Finding = { id: string; kind: string; subjects: string[]; explanation: string };

async function setup(): Promise<Registry> {
  // No standing queries: the scan judges no sources (a project fed over HTTP).
  const { root, cleanup } = tempDataRoot();
  cleanups.push(cleanup);
  const registry = await registryAt(root, { runJobs: false });
  cleanups.push(() => registry.close());
  await asRoot(registry, 'project_add', { name: 'alpha' });
  return registry;
}

const add = async (registry: Registry, items: unknown[]) =>
  ((await asRoot(registry, 'add_items', { project: 'alpha', items })) as { ids: string[] }).ids;

describe('review scan: knowledge whose every anchor is deleted', () => {
  it('opens one orphaned_knowledge finding per such fact or rule, once, and leaves the rest alone', async () => {
    const registry = await setup();
    const [a, b, c] = await add(registry, [
      { type: 'thread', summary: 'Thread A' },
      { type: 'thread', summary: 'Thread B' },
      { type: 'task', summary: 'Task C' },
    ]);
    const [fact, rule, both, moved, loose] = await add(registry, [
      { type: 'fact', summary: 'Only on A', anchors: [a] },
      { type: 'rule', summary: 'Rule only on A and C', anchors: [a, c] },
      { type: 'fact', summary: 'On A and B', anchors: [a, b] },
      { type: 'fact', summary: 'Moved from A to B', anchors: [a] },
      { type: 'fact', summary: 'Unanchored' },
    ]);
    // As a store from before stop 30 holds it: the re-anchoring, then the deletions the
    // refusal now stops.
    await registry.context.engine.append(
      'alpha',
      [
        { type: 'item_related', item: moved!, relation: 'anchor', target: b! },
        { type: 'item_deleted', item: a!, reason: 'closed' },
        { type: 'item_deleted', item: c!, reason: 'done' },
      ],
      { kind: 'cli' },
    );

    const scanned = (await asRoot(registry, 'review_scan', { project: 'alpha' })) as {
      opened: Finding[];
    };
    const orphaned = scanned.opened.filter((f) => f.kind === 'orphaned_knowledge');
    // Keyed on the item alone: its deleted anchors are in the explanation.
    expect(orphaned.map((f) => f.subjects)).toEqual([[fact!], [rule!]].sort());
    const byItem = new Map(orphaned.map((f) => [f.subjects[0], f]));
    expect(byItem.get(fact)!.explanation).toBe(
      `fact ${fact} is anchored only to deleted items (${a}): no orient and no open loads it; anchor it to a live thread or task (mem items relate ${fact} --relation anchor --target ID), or delete it`,
    );
    expect(byItem.get(rule)!.explanation).toContain(`(${[a!, c!].sort().join(', ')})`);
    for (const id of [both, moved, loose])
      expect(scanned.opened.flatMap((f) => f.subjects)).not.toContain(id);

    // The SQLite projection lists them (its review_finding takes the new kind).
    const listed = (await asRoot(registry, 'review_list', { project: 'alpha' })) as {
      findings: Finding[];
    };
    expect(listed.findings.filter((f) => f.kind === 'orphaned_knowledge').map((f) => f.id)).toEqual(
      orphaned.map((f) => f.id),
    );
    // A second scan over the same log opens nothing.
    expect(
      ((await asRoot(registry, 'review_scan', { project: 'alpha' })) as { opened: Finding[] })
        .opened,
    ).toEqual([]);

    // Anchored again to a thread that is deleted in turn (a log appended by hand): still one
    // orphan, one open finding, not a second beside it for the new set of deleted anchors.
    const [d] = await add(registry, [{ type: 'thread', summary: 'Thread D' }]);
    await registry.context.engine.append(
      'alpha',
      [
        { type: 'item_related', item: fact!, relation: 'anchor', target: d! },
        { type: 'item_deleted', item: d!, reason: 'closed' },
      ],
      { kind: 'cli' },
    );
    expect(
      ((await asRoot(registry, 'review_scan', { project: 'alpha' })) as { opened: Finding[] })
        .opened,
    ).toEqual([]);

    // Decided like any finding; supersede has no two statements to resolve.
    const refused = await asRoot(registry, 'review_supersede', {
      project: 'alpha',
      id: orphaned[0]!.id,
      reason: 'no',
    }).catch((e: unknown) => e);
    expect(isMemError(refused) && refused.code).toBe('INVALID_INPUT');
    await asRoot(registry, 'review_dismiss', {
      project: 'alpha',
      id: orphaned[0]!.id,
      reason: 'deleting it next',
    });
    const left = (await asRoot(registry, 'review_list', { project: 'alpha' })) as {
      findings: Finding[];
    };
    expect(left.findings.map((f) => f.id)).toEqual([orphaned[1]!.id]);
  });
});
