import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SYSTEM_PROJECT } from '@mem/core';
import type { Engine } from '@mem/engine';
import {
  itemStorePath,
  openControlStore,
  openItemStore,
  type ControlStore,
  type ItemStore,
} from '@mem/projector-sqlite';

/** The read side of one request: the control tables and the item store, as of now. */
export interface StoreView {
  control: ControlStore;
  items: ItemStore;
}

/** How long a replaced store stays open for requests that still hold it (they are short). */
const RETIRE_AFTER_MS = 30_000;

/**
 * Keeps the projections a server reads current across processes, per request and cheaply.
 * Trigger: another process (`mem token mint`, `mem ingest`) appended to the log or sealed the
 * store. Why: a revocation or a removed membership must bite on the very next request. Outcome:
 * a changed `_system` log (a stat of its directory and newest segment) is caught up here, and a
 * replaced `items.sqlite` (seals rename a new file over it: a new inode) is reopened.
 */
export class ProjectionStores {
  private view: (StoreView & { ino: number; mtimeMs: number }) | undefined;
  private systemSignature = '';
  private dirMtimeMs = -1;
  private newestSegment: string | undefined;
  private pending: Promise<void> | undefined;
  private opened = false;
  private readonly storePath: string;
  private readonly systemDir: string;

  constructor(private readonly engine: Engine) {
    this.storePath = itemStorePath(engine.paths.stateDir);
    this.systemDir = join(engine.paths.logDir, SYSTEM_PROJECT);
  }

  /** Catches every project up once (creating the store on a fresh root). */
  async open(): Promise<void> {
    await this.engine.catchUp();
    this.opened = true;
    this.systemSignature = this.signature();
    this.reopenIfReplaced();
  }

  /** The stores as of now: `_system` caught up if its log moved, the file reopened if it was replaced. */
  async fresh(): Promise<StoreView> {
    if (!this.opened) await this.open();
    const signature = this.signature();
    if (signature !== this.systemSignature) {
      // One catch-up at a time; concurrent requests wait for it rather than start their own.
      this.pending ??= this.engine.catchUp([SYSTEM_PROJECT]).then(
        () => {
          this.systemSignature = signature;
          this.pending = undefined;
        },
        (error: unknown) => {
          this.pending = undefined;
          throw error;
        },
      );
      await this.pending;
    }
    // Trigger: `.mem/` was dropped under a running server. Outcome: rebuilt from the log, as always.
    if (!statSync(this.storePath, { throwIfNoEntry: false })) await this.open();
    return this.reopenIfReplaced();
  }

  close(): void {
    if (this.view) {
      this.view.control.close();
      this.view.items.close();
      this.view = undefined;
    }
  }

  private reopenIfReplaced(): StoreView {
    const stat = statSync(this.storePath, { throwIfNoEntry: false });
    if (this.view && stat && stat.ino === this.view.ino && stat.mtimeMs === this.view.mtimeMs)
      return this.view;
    const old = this.view;
    this.view = {
      control: openControlStore(this.storePath),
      items: openItemStore(this.storePath),
      ino: stat?.ino ?? 0,
      mtimeMs: stat?.mtimeMs ?? 0,
    };
    if (old) {
      // A request that awaited mid-way may still read the old handles: close them later.
      setTimeout(() => {
        old.control.close();
        old.items.close();
      }, RETIRE_AFTER_MS).unref();
    }
    return this.view;
  }

  /** Directory mtime (a new segment) + newest segment's name, size and mtime: changes with every append. */
  private signature(): string {
    const dir = statSync(this.systemDir, { throwIfNoEntry: false });
    if (!dir) return 'absent';
    if (dir.mtimeMs !== this.dirMtimeMs) {
      // Listing only when the directory changed (a new segment): a request costs stats, not a readdir.
      this.dirMtimeMs = dir.mtimeMs;
      this.newestSegment = readdirSync(this.systemDir)
        .filter((name) => /^\d{6}\.jsonl$/.test(name))
        .sort()
        .at(-1);
    }
    const newest = this.newestSegment;
    if (newest === undefined) return `${dir.mtimeMs}`;
    const segment = statSync(join(this.systemDir, newest), { throwIfNoEntry: false });
    return `${dir.mtimeMs}:${newest}:${segment?.size ?? 0}:${segment?.mtimeMs ?? 0}`;
  }
}
