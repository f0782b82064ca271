/** A file that exists but could not be read: reported, never deleted or overwritten. */
export interface UnreadableFile {
  unreadable: string;
}

/** What is on disk at a path the projector manages: its text, or the reason it could not be read. */
export type ExistingFile = string | UnreadableFile;

/** Reconciliation report: every list sorted by path. */
export interface VaultPlan {
  /** Desired, absent on disk: write. */
  new: string[];
  /** Desired, on disk with other bytes: write. */
  changed: string[];
  /** On disk, no longer desired: delete. */
  removed: string[];
  /** Desired and already byte-identical: leave. */
  unchanged: string[];
  /** On disk but unreadable: leave alone and report. */
  unreadable: string[];
}

function byPath(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Plans how to turn `existing` into `desired`. Pure: plain maps in, sorted report out.
 * `existing` must hold only files this projector manages, so nothing else can be removed.
 */
export function planVaultChanges(
  desired: ReadonlyMap<string, string>,
  existing: ReadonlyMap<string, ExistingFile>,
): VaultPlan {
  const plan: VaultPlan = { new: [], changed: [], removed: [], unchanged: [], unreadable: [] };
  for (const [path, content] of desired) {
    const current = existing.get(path);
    if (current === undefined) plan.new.push(path);
    else if (typeof current !== 'string') plan.unreadable.push(path);
    else if (current === content) plan.unchanged.push(path);
    else plan.changed.push(path);
  }
  for (const [path, current] of existing) {
    if (desired.has(path)) continue;
    if (typeof current === 'string') plan.removed.push(path);
    else plan.unreadable.push(path);
  }
  for (const list of [plan.new, plan.changed, plan.removed, plan.unchanged, plan.unreadable])
    list.sort(byPath);
  return plan;
}
