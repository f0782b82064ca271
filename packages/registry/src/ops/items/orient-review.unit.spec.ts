import { describe, expect, it } from 'vitest';
import { reviewPointers } from './orient.js';
import type { ReachableItems } from './reachable-store.js';

/*
 * Stop 33 (board "Cited sources", read by the stop-28 reviewer): orient's `review` pointers had
 * no cap, so a reader of hundreds of projects with findings open got one pointer for each. They
 * are bounded now as orient's other sections are: the first that fit the byte budget, with the
 * exact count of every project with a finding open and of those left out.
 */
const projects = Array.from({ length: 300 }, (_, i) => `project-${String(i).padStart(3, '0')}`);
const counts = projects.flatMap((project, i) => [
  { project, kind: 'duplicate' as const, open: 1 + (i % 3) },
  ...(i % 2 ? [{ project, kind: 'orphaned_knowledge' as const, open: 2 }] : []),
]);
const reach = (names: readonly string[]) => ({
  projects: [...names],
  items: {
    openFindingCounts: (asked: readonly string[]) =>
      counts.filter((c) => asked.includes(c.project)),
  } as unknown as ReachableItems['items'],
});

describe("orient's review pointers", () => {
  it('are bounded by the budget, counting every project with a finding open and those left out', () => {
    const review = reviewPointers(reach(projects), 1024);
    expect(review.total).toBe(300);
    expect(review.items.length).toBeGreaterThan(0);
    expect(review.items.length).toBeLessThan(300);
    expect(review.omitted).toBe(300 - review.items.length);
    expect(review.bytes).toBeLessThanOrEqual(1024);
    expect(review.bytes).toBe(Buffer.byteLength(JSON.stringify(review.items)));
    expect(review.cap).toBe(1024);
    // The first projects, in order, each with its kinds summed.
    expect(review.items.map((r) => r.project)).toEqual(projects.slice(0, review.items.length));
    expect(review.items[1]).toEqual({
      project: 'project-001',
      open: 4,
      kinds: [
        { kind: 'duplicate', open: 2 },
        { kind: 'orphaned_knowledge', open: 2 },
      ],
      next: 'mem review list --project project-001',
    });
    // One more pointer would not have fitted.
    const next = JSON.stringify(
      reviewPointers(reach(projects), 1_048_576).items[review.items.length],
    );
    expect(review.bytes + 1 + Buffer.byteLength(next)).toBeGreaterThan(1024);
  });

  it('leave nothing out when all fit', () => {
    const review = reviewPointers(reach(projects.slice(0, 2)), 1024);
    expect(review).toMatchObject({ total: 2, omitted: 0 });
    expect(review.items.map((r) => r.project)).toEqual(['project-000', 'project-001']);
  });
});
