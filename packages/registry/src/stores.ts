import { statSync } from 'node:fs';
import type { Engine } from '@mem/engine';
import {
  itemStorePath,
  openControlStore,
  openItemStore,
  type ControlStore,
  type ItemStore,
} from '@mem/projector-sqlite';
import { LogMoves } from './log-moves.js';

/** The read side of one request: the control tables and the item store, as of now. */
export interface StoreView {
  control: ControlStore;
  items: ItemStore;
}

/**
 * What a read reads besides the item store and the control tables. `vectors`: pgvector too
 * (query, context) — the projection a write leaves behind (Projector.deferred), caught up here
 * before the read answers.
 */
export interface ReadOptions {
  vectors?: boolean;
}

/** How long a replaced store stays open for requests that still hold it (they are short). */
const RETIRE_AFTER_MS = 30_000;

/**
 * Keeps the projections a server reads current across processes, per request and cheaply.
 * Trigger: another process (a second `mem serve`, `mem token mint`, `mem log append`, `mem
 * ingest`) appended to the log — and maybe never caught up: it died after the fsync, its
 * Postgres was unreachable, or it could not open the embedded PGlite this server holds. Why: a
 * read must see every write acknowledged before it (a revocation must bite on the very next
 * request), and until now only a moved `_system` log was noticed, so another project's stranded
 * events stayed out of this server's projections until it appended itself. Outcome: every
 * project whose log moved (stats of its directory and newest segment) is caught up before the
 * read — a no-op catch-up when the writer already did it — and a replaced `items.sqlite` (a
 * new inode: `.mem/` dropped, or a file that was no database recreated; a rebuild installs in
 * place through SQLite's backup API and keeps the inode) is reopened.
 */
export class ProjectionStores {
  private view: (StoreView & { ino: number; born: number }) | undefined;
  private opened = false;
  private readonly storePath: string;
  /** Log moves the write path's projections (SQLite, the vault) have caught up with. */
  private readonly logs: LogMoves;
  /** Log moves every projection has caught up with, the deferred ones (pgvector) included. */
  private readonly vectorLogs: LogMoves;
  /** The background catch-up of the deferred projections in flight (catchUpLater), if any. */
  private background: Promise<void> | undefined;
  /** A write landed while the background catch-up ran: it goes round once more. */
  private again = false;
  private closed = false;

  /** Stops watching the engine's catch-ups (close). */
  private readonly unwatch: () => void;

  constructor(private readonly engine: Engine) {
    this.storePath = itemStorePath(engine.paths.stateDir);
    this.logs = new LogMoves(engine.paths.logDir);
    this.vectorLogs = new LogMoves(engine.paths.logDir);
    this.unwatch = engine.watchCatchUps((projections) => this.caughtUpFrom(projections));
  }

  /**
   * Any catch-up of this engine covers the log as it stood when it began reading it: the
   * signatures taken then are accepted once it succeeds. Trigger: an item write's own append
   * moved the log, and its catch-up (inside the append) brought the store up to it; the next
   * write's `fresh` saw the move and ran a catch-up of nothing — the projection lock, the
   * `_system` settings, three listings, a head, the store's position: 0.8 ms CPU of every
   * add_items(100) at 100 k (stop 34). Why it is safe: the signatures are taken under the
   * projection lock before the catch-up reads any head, so an append after them (another
   * process's) changes a signature and is caught up by the next read, as before.
   */
  private caughtUpFrom(projections: readonly string[]): (() => void) | undefined {
    const covers = (names: readonly string[]) => names.every((name) => projections.includes(name));
    if (this.closed || !covers(this.engine.writePathProjectorNames())) return undefined;
    const every = covers(this.engine.projectorNames());
    const signatures = this.logs.signatures();
    return () => {
      this.logs.accept(signatures);
      if (every) this.vectorLogs.accept(signatures);
    };
  }

  /** Catches every project up once, every projection (creating the store on a fresh root). */
  async open(): Promise<void> {
    const moved = this.vectorLogs.moved();
    await this.engine.catchUp();
    this.opened = true;
    this.logs.accept(moved);
    this.vectorLogs.accept(moved);
    this.reopenIfReplaced();
  }

  /**
   * The stores as of now: every moved project caught up, the file reopened if it was replaced.
   * A read of `vectors` waits for a background catch-up in flight, then catches up every
   * projection of a moved project, pgvector included; any other read only the write path's.
   */
  async fresh(options: ReadOptions = {}): Promise<StoreView> {
    if (!this.opened) await this.open();
    if (options.vectors) {
      // Trigger: a write's background catch-up (catchUpLater) is embedding. Why: a second
      // catch-up would only queue behind it for the projection lock. Outcome: the read waits
      // for it, then catches up whatever is left (nothing, unless another write landed).
      await this.background;
      await this.catchUpMoved(this.vectorLogs, {});
    } else {
      await this.catchUpMoved(this.logs, { writePath: true });
    }
    // Trigger: `.mem/` was dropped under a running server. Outcome: rebuilt from the log, as always.
    if (!statSync(this.storePath, { throwIfNoEntry: false })) await this.open();
    // Trigger: another process (or this one) is catching up, rebuilding or purging, so the log
    // did not move but the stores are being changed, or a rebuild emptied them. Outcome: the
    // read waits for that writer's projection lock (a catch-up of nothing once it has it).
    if (this.engine.settledProjectionGeneration() === null)
      await this.engine.catchUp(undefined, { writePath: !options.vectors });
    return this.reopenIfReplaced();
  }

  /**
   * Catches up the projects whose log moved since `logs` last accepted them. Concurrent requests
   * share one catch-up: the engine joins a caller to a catch-up that has not read the log yet,
   * which therefore covers every write this request could know of. A catch-up of every
   * projection covers the write path's too.
   */
  private async catchUpMoved(logs: LogMoves, options: { writePath?: boolean }): Promise<void> {
    const moved = logs.moved();
    if (moved.size === 0) return;
    await this.engine.catchUp([...moved.keys()], options);
    logs.accept(moved);
    if (!options.writePath) this.logs.accept(moved);
  }

  /**
   * After a write (`mem serve`): catches the deferred projections (pgvector) up off the request
   * path, once the response is on its way, so the next query rarely pays the embedding. One at a
   * time: a write landing meanwhile sends it round once more. A failure is handed to `onError`,
   * never thrown: the write was acknowledged, and the next vector read catches up (and fails)
   * on its own.
   */
  catchUpLater(onError: (error: unknown) => void): void {
    if (this.closed) return;
    if (this.background) {
      this.again = true;
      return;
    }
    const run = async () => {
      // After the response: setImmediate runs once the request's promise chain (the adapter
      // writing the answer) is done.
      await new Promise<void>((resolve) => setImmediate(resolve));
      do {
        this.again = false;
        try {
          await this.catchUpMoved(this.vectorLogs, {});
        } catch (error) {
          onError(error);
        }
      } while (this.again && !this.closed);
    };
    this.background = run().finally(() => {
      this.background = undefined;
    });
  }

  /** Waits for the background catch-up in flight (if any); none starts after close. */
  async idle(): Promise<void> {
    await this.background;
  }

  /**
   * Runs `read` on stores no writer changed while it ran: a read of several statements, or of
   * SQLite and pgvector together (a query: vector hits looked up in the item store), must not
   * see a batch half applied — pgvector commits a catch-up batch by batch, SQLite at its seal.
   * The read runs on the fresh stores; when the projection generation moved while it ran
   * (engine projection-generation.ts), it runs again under the projection lock, caught up, where
   * no writer can start. `read` must not catch up itself (no `fresh()` inside): it may run
   * holding the lock. `projects` are caught up first.
   */
  async settledRead<T>(
    projects: readonly string[],
    read: (view: StoreView) => Promise<T>,
    options: ReadOptions = {},
  ): Promise<T> {
    const view = await this.fresh(options);
    const before = this.engine.settledProjectionGeneration();
    if (before !== null) {
      // A failure counts like an answer: a token a rebuild had not replayed yet is no 401.
      const outcome = await read(view).then(
        (answer) => ({ answer }),
        (error: unknown) => ({ error }),
      );
      if (this.engine.settledProjectionGeneration() === before) {
        if ('error' in outcome) throw outcome.error;
        return outcome.answer;
      }
    }
    return this.engine.readCaughtUp(
      projects,
      () => read(this.reopenIfReplaced()),
      options.vectors ? {} : { reads: this.engine.writePathProjectorNames() },
    );
  }

  close(): void {
    this.closed = true;
    this.unwatch();
    if (this.view) {
      this.view.control.close();
      this.view.items.close();
      this.view = undefined;
    }
  }

  /**
   * The open view, unless `items.sqlite` is another file now: another inode, or one born at
   * another instant (an inode number reused by a new file). Trigger: the file's mtime moves at
   * every checkpoint of a catch-up (most add_items at 100 k items). Why not reopen then: the
   * connections read every commit and every install in place through SQLite (WAL), and what
   * they cache checks PRAGMA data_version; a reopen cost two connections, their prepared
   * statements (~4 ms CPU) and a cold page cache. Where the file system keeps no birth time,
   * the inode alone tells, as it does for the catch-up's kept handle (reuse-store.ts).
   */
  private reopenIfReplaced(): StoreView {
    const stat = statSync(this.storePath, { throwIfNoEntry: false });
    if (this.view && stat && stat.ino === this.view.ino && stat.birthtimeMs === this.view.born)
      return this.view;
    const old = this.view;
    this.view = {
      control: openControlStore(this.storePath),
      items: openItemStore(this.storePath),
      ino: stat?.ino ?? 0,
      born: stat?.birthtimeMs ?? 0,
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
}
