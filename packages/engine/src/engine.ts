import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import {
  MemError,
  SYSTEM_PROJECT,
  assertProjectName,
  hasErrorCode,
  isMemError,
  type Payload,
  type Writer,
} from '@mem/core';
import {
  extendBatch,
  validateBatch,
  type AppendResult,
  type EventLogOptions,
  type LogHead,
  type LoggedEvent,
  type ReadOptions,
  type VerifyResult,
} from '@mem/log';
import {
  assertAppendProvenance,
  provenanceReadsLog,
  type AppendInput,
} from './append-provenance.js';
import { AppendFolds, type AppendFold } from './append-fold.js';
import { AppendQueue } from './append-queue.js';
import { admitAgainstTombstones, tombstonesReadLog } from './tombstones/admission.js';
import { TombstoneSet } from './tombstones/tombstone-set.js';
import { catchUpProject, type CatchUpReport, type OpenProjector } from './catch-up.js';
import { GuardedEventLog } from './guarded-log.js';
import { WrittenTails } from './written-tail.js';
import {
  DEFAULT_PROJECTION_OPTIONS,
  ProjectionSettings,
  assertSettingsInSystem,
  settingsChange,
} from './projection-settings.js';
import type {
  ProjectionOptions,
  ProjectionPosition,
  ProjectionTarget,
  Projector,
} from './projector.js';
import { exclusiveLockPath, projectionLockPath, withLock } from './locks.js';
import {
  beginProjectionChange,
  endProjectionChange,
  settledGeneration,
} from './projection-generation.js';
import { furthestHead, readRecordedHead, writeRecordedHead } from './recorded-heads.js';
import { dataRootAt, type DataRoot } from './root.js';
import { verifyRoot, type VerifyReport } from './verify.js';
import { clearCopies } from './purge-copies.js';
import { resolvePurgeRef } from './purge-ref.js';

export interface EngineOptions {
  /** Absolute data root. */
  root: string;
  /** The projections this engine keeps caught up, in the order they are applied. */
  projectors: readonly Projector[];
  /** Fixes the projection options instead of reading them from the `_system` log (scratch roots, tests). */
  projection?: ProjectionOptions;
  /** Segment size of new log segments (tests use tiny ones). */
  segmentBytes?: number;
  /** The log's fsync (EventLogOptions.fsync): tests count or hold fsyncs; it must call the real one. */
  fsync?: EventLogOptions['fsync'];
}

export interface AppendOptions extends AppendInput {
  /**
   * `now` (default): the projections are caught up before append returns. `write-path`: all but
   * the `deferred` ones (pgvector), which their readers catch up (an item write, issue 13 §6).
   * `later`: append returns once the batch is durable; the caller catches up (`catchUp`,
   * `projectAppended`) when it is ready — a writer appending many batches under a lock of its
   * own, then catching up once.
   */
  catchUp?: 'now' | 'write-path' | 'later';
  /**
   * Write memory text even where a `forgotten` tombstone refuses it (FORGOTTEN otherwise); each
   * overridden tombstone is recorded by a `resurfaced` event appended with the batch.
   */
  force?: boolean;
  /**
   * An Idempotency-Key's record (issue 13 §2): appended as the batch's last event, so the write
   * and its key land in one atomic append. The result the caller gets leaves it out, so a
   * write answers the same with a key as without one.
   */
  idempotency?: IdempotencyRecord;
  /**
   * The seq the batch's first event must get: a batch whose payloads name ids derived from its
   * own seqs (add_items' in-batch refs). If the log moved past the head it was built on, the
   * batch is refused unwritten (CONFLICT) and the caller builds it again.
   */
  firstSeq?: number;
}

/** What an idempotency_recorded event holds besides the size of the batch it closes. */
export type IdempotencyRecord = Omit<
  Extract<Payload, { type: 'idempotency_recorded' }>,
  'type' | 'events'
>;

export interface RebuildOptions {
  /** Only this project (default: every project in the log). */
  project?: string;
  /** Only these projectors by name (default: all). */
  only?: readonly string[];
  /** New projection options: appended to `_system` (by `writer`) when they change what it holds, then rebuilt under. */
  projection?: ProjectionOptions;
  /** Who appends a settings change (default: the CLI). */
  writer?: Writer;
}

/** What a purge rewrote: the lines (seq, old and new line hash), the segments, the `purged` event's seq. */
export interface PurgeReport {
  project: string;
  text_sha256: string;
  lines: { seq: number; old: string; new: string }[];
  segments: string[];
  seq: number;
}

export interface RebuildReport extends CatchUpReport {
  projectors: string[];
  projects: string[];
}

/** Which projections a catch-up covers: every one, or those a write waits for. */
type CatchUpSelection = 'all' | 'write-path';

/**
 * Told of every catch-up this engine runs (`Engine.watchCatchUps`): called under the projection
 * lock once the projectors are open and before the log is read, with the names of the
 * projections the catch-up brings up to the log's head (one another process holds is left out).
 * What it returns is called when that catch-up has succeeded (sealed, heads recorded); not
 * after a failure. Whatever the log held when the watcher was called, those projections hold
 * then: the catch-up read every project's head after it.
 */
export type CatchUpWatcher = (projections: readonly string[]) => (() => void) | undefined;

/** An append's result as the write alone: the idempotency record that closed its batch left out. */
function withoutRecord(result: AppendResult): AppendResult {
  return {
    ...result,
    appended: result.appended - 1,
    last_seq: result.last_seq - 1,
    events: result.events.slice(0, -1),
  };
}

/**
 * The write path and the projection lifecycle of one data root: every append is followed by
 * an incremental catch-up of the projections (an item write's leaves the `deferred` ones to
 * their readers); rebuild drops and replays; verify checks the
 * chain, the provenance graph and byte parity against a fresh rebuild.
 */
export class Engine {
  readonly paths: DataRoot;
  /**
   * The log, guarded: an append refuses (CHAIN_BROKEN) when the tail disagrees with the head the
   * projections recorded. Private (a runtime-private field, not only a type): every writer goes
   * through append, so no batch skips the provenance check or the catch-up; readers use read,
   * head, projects and verifyLog. Only rebuild appends to it directly (see there).
   */
  readonly #log: GuardedEventLog;
  private readonly projectors: readonly Projector[];
  private options: ProjectionOptions = { ...DEFAULT_PROJECTION_OPTIONS };
  private readonly settings: ProjectionSettings;

  private readonly fixedOptions: ProjectionOptions | undefined;
  /**
   * The catch-up waiting for the projection lock that has not read the log yet, one per
   * selection (see catchUp): every projector, or the write path's alone.
   */
  private readonly queuedCatchUps = new Map<
    CatchUpSelection,
    { projects: Set<string> | undefined; done: Promise<CatchUpReport> }
  >();
  /** The order of this process's appends per project: checked, then queued (see append). */
  private readonly queue = new AppendQueue();
  /** What this engine just appended, handed to the catch-up that follows (written-tail.ts). */
  private readonly written = new WrittenTails();
  /** What the append checks fold from each project's log, advanced by its new events. */
  private readonly folds: AppendFolds;
  /**
   * Handles of reusable projectors (`Projector.reusable`) kept open between catch-ups. Taken
   * out while an operation holds them, so a handle is never shared by two.
   */
  readonly #kept = new Map<Projector, unknown>();
  /** Set by close(): no handle is kept after it. */
  #closed = false;
  /** Told of each catch-up (watchCatchUps). */
  readonly #watchers = new Set<CatchUpWatcher>();

  constructor(options: EngineOptions) {
    this.paths = dataRootAt(options.root);
    this.projectors = options.projectors;
    this.#log = new GuardedEventLog(
      {
        dir: this.paths.logDir,
        ...(options.segmentBytes ? { segmentBytes: options.segmentBytes } : {}),
        ...(options.fsync ? { fsync: options.fsync } : {}),
      },
      this.paths.stateDir,
    );
    this.fixedOptions = options.projection;
    this.settings = new ProjectionSettings(this.#log);
    this.folds = new AppendFolds(this.#log, this.paths.stateDir);
  }

  /** Where the live projections are written. */
  get target(): ProjectionTarget {
    return { stateDir: this.paths.stateDir, vaultDir: this.paths.vaultDir, options: this.options };
  }

  /** Re-reads the settings `_system` holds: another process may have changed them since. */
  private async refreshOptions(): Promise<void> {
    this.options = this.fixedOptions ?? (await this.settings.read());
  }

  projectorNames(): string[] {
    return this.projectors.map((p) => p.name);
  }

  /**
   * The one way into the log: appends a batch (validated whole, its memories' provenance checked
   * against the log and the batch, durable on return), then catches the projections up — only
   * those a write waits for with `catchUp: 'write-path'`, none with `'later'`. If the catch-up fails the events are still in the log: the error says so and carries their seqs,
   * so a caller never retries (and duplicates) an append that succeeded.
   */
  async append(
    project: string,
    payloads: readonly unknown[],
    writer: Writer,
    options: AppendOptions = {},
  ): Promise<AppendResult> {
    const { catchUp = 'now', force = false, idempotency, firstSeq, ...input } = options;
    assertProjectName(project);
    assertSettingsInSystem(project, payloads);
    // Validated once, here: the checks read the very payloads (scrubbed, as zod made them) that
    // the log then writes without validating them again. Bad input is refused before queueing.
    const valid = validateBatch(payloads, writer, (index) => ({
      ...(input.file !== undefined ? { file: input.file } : {}),
      line: input.lines?.[index] ?? index + 1,
    }));
    // Checked and queued in call order per project, while the batches before it may still be
    // in flight: they then share a group commit (append-queue.ts).
    const result = await this.queue.run(project, valid.payloads, async (inFlight) => {
      let counted = inFlight;
      // Trigger: the batch writes memory text while a forget is in flight. Why: a tombstone is
      // matched with the seq of its forgotten event, which is not known before it is written.
      // Outcome: this batch waits until the batches before it are durable, then reads them.
      if (
        tombstonesReadLog(valid.payloads) &&
        inFlight.some(({ payloads }) => payloads.some((payload) => payload.type === 'forgotten'))
      ) {
        await this.queue.settled(project);
        counted = [];
      }
      // Only the provenance check counts the batches in flight; if one fails, this one must too.
      const after = provenanceReadsLog(valid.payloads) ? counted : [];
      // Both checks read one fold of the log, caught up once, and only if either needs it.
      let folded: Promise<AppendFold> | undefined;
      const fold = () => (folded ??= this.folds.current(project));
      await assertAppendProvenance(
        fold,
        project,
        valid.payloads,
        input,
        after.flatMap(({ payloads }) => payloads),
      );
      const resurfaced = await admitAgainstTombstones(fold, project, valid.payloads, force, input);
      const batch = extendBatch(valid, resurfaced);
      const closed = idempotency
        ? extendBatch(batch, [
            { type: 'idempotency_recorded', ...idempotency, events: batch.payloads.length },
          ])
        : batch;
      return this.#log.queueGuarded(
        project,
        closed,
        after.map(({ queued }) => queued),
        firstSeq,
      );
    });
    const written = idempotency ? withoutRecord(result) : result;
    if (catchUp === 'later') return written;
    this.written.remember(project, result.events);
    return this.projectAppended(written, { writePath: catchUp === 'write-path' });
  }

  /**
   * The project's tombstones as its log holds them now (a copy): from the fold the append checks
   * keep, so only the events since it was last advanced are read (a writer that drops forgotten
   * lines before it appends: ingest, synthesize). Batches still in flight are not in it.
   */
  async tombstones(project: string): Promise<TombstoneSet> {
    assertProjectName(project);
    return this.queue.inTurn(project, async () =>
      TombstoneSet.copyOf((await this.folds.current(project)).tombstones),
    );
  }

  /** Streams a project's events in seq order, validated and chain-checked (empty without a journal). */
  read(project: string, options: ReadOptions = {}): AsyncIterable<LoggedEvent> {
    return this.#log.read(project, options);
  }

  /** A project's chain head (seq 0 and the genesis hash before its first event). */
  head(project: string): Promise<LogHead> {
    return this.#log.head(project);
  }

  /** Projects that have a journal, sorted. */
  projects(): Promise<string[]> {
    return this.#log.projects();
  }

  /** Walks a project's whole chain; reports the first break instead of throwing. */
  verifyLog(project: string): Promise<VerifyResult> {
    return this.#log.verify(project);
  }

  /**
   * The second half of append, for writers that append under a lock of their own and catch up
   * after releasing it: catches the projections (with `writePath`, all but the `deferred` ones)
   * up past `result`, or says PROJECTION_FAILED (or NO_SPACE, naming the file) with the seqs that are
   * durable all the same.
   */
  async projectAppended(
    result: AppendResult,
    options: { writePath?: boolean } = {},
  ): Promise<AppendResult> {
    const { project } = result;
    try {
      await this.catchUp([project], options);
    } catch (error) {
      const why = isMemError(error) ? error.message : (error as Error).message;
      // A full disk keeps its code, so every surface says NO_SPACE (HTTP 507) and names the file;
      // the seqs say it is not the append that failed.
      const code = hasErrorCode(error, 'NO_SPACE') ? 'NO_SPACE' : 'PROJECTION_FAILED';
      const cause = isMemError(error) ? error.details : {};
      throw new MemError(
        code,
        `appended seq ${result.first_seq}..${result.last_seq} to ${project} (durable), but catching the projections up failed: ${why}`,
        {
          ...(code === 'NO_SPACE' ? cause : {}),
          project,
          appended: result.appended,
          first_seq: result.first_seq,
          last_seq: result.last_seq,
        },
        { cause: error },
      );
    }
    return result;
  }

  /**
   * Applies whatever the projections lack, then seals the changed ones: `projects` first, then
   * every other project of the log — a projector that reset itself on open (a new version, other
   * options) must be replayed for all projects, not only the one just written. `writePath`:
   * only the projections a write waits for (the `deferred` ones left to their readers).
   */
  async catchUp(
    projects?: readonly string[],
    options: { writePath?: boolean } = {},
  ): Promise<CatchUpReport> {
    const selection: CatchUpSelection = options.writePath ? 'write-path' : 'all';
    // Trigger: a catch-up of this process (of the same projections) is already waiting for the
    // lock and has not read the log yet. Why: it will read the log after this caller's append,
    // so it covers it; each catch-up ends in a seal that rewrites the SQLite store, and
    // concurrent writers (a server accepting ingests) would otherwise seal once each, one after
    // another. Outcome: the caller joins it (its projects go first too; every project is caught
    // up either way). A write never joins a catch-up of every projection: it would wait for the
    // deferred ones it leaves to their readers.
    const queued = this.queuedCatchUps.get(selection);
    if (queued) {
      if (queued.projects && projects) for (const project of projects) queued.projects.add(project);
      else queued.projects = undefined;
      return queued.done;
    }
    const entry: { projects: Set<string> | undefined; done: Promise<CatchUpReport> } = {
      projects: projects ? new Set(projects) : undefined,
      done: Promise.resolve({ applied: [] }),
    };
    const selected =
      selection === 'write-path' ? this.projectors.filter((p) => !p.deferred) : this.projectors;
    const dequeue = () => {
      if (this.queuedCatchUps.get(selection) === entry) this.queuedCatchUps.delete(selection);
    };
    this.queuedCatchUps.set(selection, entry);
    entry.done = this.withProjectionLock(async () => {
      // From here on the log is read: later callers must queue a catch-up of their own.
      dequeue();
      return this.catchUpLocked(entry.projects ? [...entry.projects] : undefined, selected, {
        skipHeld: true,
      });
    }).finally(dequeue);
    return entry.done;
  }

  /**
   * Tells `watcher` of every catch-up from now on (CatchUpWatcher); returns the call that stops
   * it. A watcher that throws is dropped for that catch-up, which goes on: its caller then
   * learns nothing of it and looks at the log itself.
   */
  watchCatchUps(watcher: CatchUpWatcher): () => void {
    this.#watchers.add(watcher);
    return () => this.#watchers.delete(watcher);
  }

  /** The projectors a write waits for: all but the `deferred` ones (their readers catch them up). */
  writePathProjectorNames(): string[] {
    return this.projectors.filter((p) => !p.deferred).map((p) => p.name);
  }

  /**
   * The projection generation when no catch-up, rebuild or purge is changing a projection, null
   * while one is (projection-generation.ts). A read spanning several statements or both stores
   * that began and ended at one generation saw no commit; otherwise it reads again in
   * `readCaughtUp`.
   */
  settledProjectionGeneration(): number | null {
    return settledGeneration(this.paths.stateDir);
  }

  /**
   * Catches up, then runs `read` while still holding the projection lock, so it sees the
   * projections exactly at the log head, never between a catch-up's commit and its seal.
   * `reads` names the projections `read` reads (default: all): only those of this engine's
   * projectors are opened and caught up; the others catch up at the next full catch-up.
   * Why: a reader of SQLite alone (the ingest's prior state) must not start the embedded
   * Postgres (issue 15 target 5: ~120 MB held through the ingest loop).
   */
  async readCaughtUp<T>(
    projects: readonly string[],
    read: () => T | Promise<T>,
    options: { reads?: readonly string[] } = {},
  ): Promise<T> {
    const { reads } = options;
    const selected = reads
      ? this.projectors.filter((p) => reads.includes(p.name))
      : this.projectors;
    return this.withProjectionLock(async () => {
      await this.catchUpLocked(projects, selected, { skipHeld: true });
      return read();
    });
  }

  /**
   * Runs `fn` holding an exclusive cross-process lock named `name` under `.mem/locks/`: for
   * writers that must not run twice at once on one project (the extractor reads its prior
   * state, then appends a whole run).
   */
  async exclusive<T>(name: string, fn: () => Promise<T>): Promise<T> {
    return withLock(exclusiveLockPath(this.paths.stateDir, name), fn);
  }

  /**
   * Drops the selected projections (of one project, or all) and replays the log into them.
   * Every backend is opened first: one that cannot be reached (a wrong DATABASE_URL, an
   * embedded Postgres another process holds) fails the rebuild before anything is dropped.
   */
  async rebuild(options: RebuildOptions = {}): Promise<RebuildReport> {
    const selected = this.select(options.only);
    if (options.project !== undefined) assertProjectName(options.project);
    return this.withProjectionLock(async () => {
      await this.releaseKept();
      await this.checkBackends(selected);
      // The log is the only input: a new setting is appended before the replay that uses it, so
      // a rebuild that fails half-way is finished by the next catch-up under the same setting.
      const change =
        options.projection && !this.fixedOptions
          ? settingsChange(await this.settings.read(), options.projection)
          : null;
      if (change) {
        // Straight to the log, not through append: append catches up, which waits for the
        // projection lock this rebuild holds.
        await this.#log.append(SYSTEM_PROJECT, [change], options.writer ?? { kind: 'cli' });
        await this.refreshOptions();
      } else if (options.projection && this.fixedOptions) {
        this.options = { ...this.options, ...options.projection };
      }
      beginProjectionChange(this.paths.stateDir);
      for (const projector of selected)
        await guard(projector, 'reset', () => projector.reset(this.target, options.project));
      const projects =
        options.project !== undefined ? [options.project] : await this.#log.projects();
      const report = await this.catchUpLocked(projects, selected);
      return { ...report, projectors: selected.map((p) => p.name), projects };
    });
  }

  /**
   * Hard purge (DESIGN §9): rewrites the project's log without the text `ref` names (log
   * package, crash-safe, a `purged` event appended), then drops every projection and cache that
   * could hold a copy — the whole SQLite store (FTS shadow tables, WAL, journal), the embedded
   * Postgres files, the vault, the embedding cache, the recorded chain head — and replays the log.
   */
  async purge(
    project: string,
    input: { ref: string; reason: string },
    writer: Writer,
  ): Promise<PurgeReport> {
    assertProjectName(project);
    if (input.reason.trim() === '')
      throw new MemError('INVALID_INPUT', 'reason: expected a non-empty reason', {
        field: 'reason',
      });
    const text = await resolvePurgeRef(this.#log, project, input.ref);
    if (input.reason.toLowerCase().includes(text.toLowerCase())) {
      throw new MemError(
        'INVALID_INPUT',
        'reason: must not contain the text being purged (it is logged)',
        { field: 'reason' },
      );
    }
    return this.withProjectionLock(async () => {
      await this.#log.assertTailIntact(project);
      await this.releaseKept();
      beginProjectionChange(this.paths.stateDir);
      const result = await this.#log.purge(project, { text, reason: input.reason }, writer);
      await clearCopies(this.paths.stateDir);
      for (const projector of this.projectors)
        await guard(projector, 'reset', () => projector.reset(this.target));
      await this.catchUpLocked(undefined, this.projectors);
      return {
        project,
        text_sha256: result.text_sha256,
        lines: result.lines,
        segments: result.segments,
        seq: result.event.seq,
      };
    });
  }

  /** Chain, provenance and parity of every project (or one). */
  async verify(options: { project?: string } = {}): Promise<VerifyReport> {
    if (options.project !== undefined) assertProjectName(options.project);
    // A purge a crash interrupted is finished (or undone) before anything reads the log.
    for (const project of options.project !== undefined
      ? [options.project]
      : await this.#log.projects())
      await this.#log.settle(project);
    return this.withProjectionLock(async () => {
      const scratch = await mkdtemp(join(tmpdir(), 'mem-verify-'));
      const target: ProjectionTarget = {
        stateDir: join(scratch, '.mem'),
        vaultDir: join(scratch, 'vault'),
        options: this.options,
      };
      // The state directory exists from the start, so dropping a scratch projection that was never built (parity skipped) is a no-op.
      await mkdir(target.stateDir, { recursive: true });
      let failed = false;
      try {
        return await verifyRoot({
          log: this.#log,
          projectors: this.projectors,
          live: this.target,
          scratch: target,
          project: options.project,
          catchUp: () => this.catchUpLocked(undefined, this.projectors),
        });
      } catch (error) {
        failed = true;
        throw error;
      } finally {
        // Trigger: a projection outside the scratch directory (a schema in DATABASE_URL's
        // database). Why: removing the directory would leave it in the user's database, one per
        // run. Outcome: every projector drops its scratch projection, also after a failure; a
        // failed drop is the error only when verify itself did not fail first.
        const dropFailure = await this.dropScratch(target);
        await rm(scratch, { recursive: true, force: true });
        // eslint-disable-next-line no-unsafe-finally, @typescript-eslint/only-throw-error -- only when the body did not fail, so no error is hidden
        if (dropFailure !== null && !failed) throw dropFailure;
      }
    });
  }

  /**
   * Opens and closes each projector at the live target, under the options it was built with.
   * Why not rebuild into scratch space and swap: the projections cannot be moved into place
   * (a schema of a shared database records its state directory), so this checks the backends
   * instead; a failure in the middle of the replay itself still leaves the projections partial.
   */
  private async checkBackends(selected: readonly Projector[]): Promise<void> {
    for (const projector of selected) {
      const handle = await guard(projector, 'open', () => projector.init(this.target));
      await guard(projector, 'close', () => projector.close(handle));
    }
  }

  /** Drops every projector's projection at a scratch target; returns the first failure instead of throwing it. */
  private async dropScratch(target: ProjectionTarget): Promise<unknown> {
    let failure: unknown = null;
    for (const projector of this.projectors) {
      try {
        await guard(projector, 'drop its scratch copy', () => projector.reset(target));
      } catch (error) {
        failure ??= error;
      }
    }
    return failure;
  }

  private select(only?: readonly string[]): Projector[] {
    if (!only || only.length === 0) return [...this.projectors];
    const unknown = only.filter((name) => !this.projectors.some((p) => p.name === name));
    if (unknown.length > 0) {
      throw new MemError(
        'INVALID_INPUT',
        `unknown projection ${unknown.map((u) => JSON.stringify(u)).join(', ')}: expected one of ${this.projectorNames().join(', ')}`,
        {
          field: 'only',
          expected: this.projectorNames(),
        },
      );
    }
    return this.projectors.filter((p) => only.includes(p.name));
  }

  /**
   * Projectors are opened per locked operation and closed after it: another process may
   * seal (replace) a projection between two of ours. A reusable projector's handle is kept
   * instead, and asked under the next lock whether it still serves (`openProjector`).
   */
  private async catchUpLocked(
    projects: readonly string[] | undefined,
    selected: readonly Projector[],
    options: { skipHeld?: boolean } = {},
  ): Promise<CatchUpReport> {
    const open: OpenProjector[] = [];
    const report: CatchUpReport = { applied: [] };
    let failure: unknown = null;
    try {
      for (const projector of selected) {
        try {
          open.push({ projector, handle: await this.openProjector(projector) });
        } catch (error) {
          // Trigger: a projection whose store another live process holds (the embedded PGlite
          // of a running `mem serve`). Why: the log write already succeeded, and the holder
          // catches that projection up itself. Outcome: the others are caught up; the report
          // names the skipped one.
          if (!options.skipHeld || !hasErrorCode(error, 'CONFLICT')) throw error;
          (report.skipped ??= []).push({
            projector: projector.name,
            reason: (error as Error).message,
          });
        }
      }
      const caughtUp = this.tellWatchers(open.map(({ projector }) => projector.name));
      const all = await this.#log.projects();
      const names = [...new Set([...(projects ?? []), ...all])].filter((p) => all.includes(p));
      const changed = new Set<string>();
      const heads = new Map<
        string,
        { positions: Map<string, ProjectionPosition | null>; moved: boolean }
      >();
      for (const project of names) {
        const caughtUp = await catchUpProject(
          this.#log,
          project,
          open,
          report,
          () => beginProjectionChange(this.paths.stateDir),
          (fromSeq, head) => this.written.take(project, fromSeq, head),
        );
        const reached = Math.min(
          ...open.map(({ projector }) => caughtUp.positions.get(projector.name)?.seq ?? 0),
        );
        this.written.applied(project, reached);
        for (const name of caughtUp.changed) changed.add(name);
        heads.set(project, { positions: caughtUp.positions, moved: caughtUp.changed.size > 0 });
      }
      for (const { projector, handle } of open) {
        if (changed.has(projector.name))
          await guard(projector, 'seal', () => projector.seal(handle));
      }
      this.recordHeads(heads);
      for (const done of caughtUp) done();
      return report;
    } catch (error) {
      failure = error;
      throw error;
    } finally {
      // Close every projector even if one fails, and never let a close error mask the first one.
      // After a success a reusable one stays open for the next catch-up; after a failure every
      // one is closed (a close commits what was applied and truncates a rewrite's -wal).
      let closeFailure: unknown = null;
      for (const { projector, handle } of open) {
        if (failure === null && projector.reusable && !this.#closed) {
          this.#kept.set(projector, handle);
          continue;
        }
        try {
          await guard(projector, 'close', () => projector.close(handle));
        } catch (error) {
          closeFailure ??= error;
        }
      }
      // eslint-disable-next-line no-unsafe-finally, @typescript-eslint/only-throw-error -- only when nothing failed before, so no error is hidden
      if (closeFailure !== null && failure === null) throw closeFailure;
    }
  }

  /** Calls each watcher before a catch-up reads the log; what they return, to call after it. */
  private tellWatchers(projections: readonly string[]): (() => void)[] {
    const after: (() => void)[] = [];
    for (const watcher of this.#watchers) {
      try {
        const done = watcher(projections);
        if (done) after.push(done);
      } catch {
        // Dropped for this catch-up (watchCatchUps): it learns nothing, so it reads the log itself.
      }
    }
    return after;
  }

  /**
   * A projector's handle for one locked operation: the one kept from the last catch-up when the
   * projector says it still serves the target, else a fresh one (the stale one closed).
   */
  private async openProjector(projector: Projector): Promise<unknown> {
    const kept = this.#kept.get(projector);
    if (kept !== undefined) {
      this.#kept.delete(projector);
      let serves = false;
      try {
        serves = await guard(projector, 'reopen', () => projector.reusable!(kept, this.target));
      } finally {
        if (!serves) await guard(projector, 'close', () => projector.close(kept));
      }
      if (serves) return kept;
    }
    return guard(projector, 'open', () => projector.init(this.target));
  }

  /**
   * The caller is done with the engine: the handles kept between catch-ups are closed, and none
   * is kept from now on — a catch-up running meanwhile (close takes no lock) closes its own
   * when it ends, and a later one opens and closes per call.
   */
  async close(): Promise<void> {
    this.#closed = true;
    await this.releaseKept();
  }

  /** Closes the handles kept between catch-ups: before a rebuild or purge resets the projections (a reset wants no handle open on them), and at close. */
  private async releaseKept(): Promise<void> {
    let failure: unknown = null;
    for (const [projector, handle] of [...this.#kept]) {
      this.#kept.delete(projector);
      try {
        await guard(projector, 'close', () => projector.close(handle));
      } catch (error) {
        failure ??= error;
      }
    }
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- the first close failure, rethrown after every handle was closed
    if (failure !== null) throw failure;
  }

  /**
   * Copies the furthest head each project's projections now hold to where the write path
   * checks it (see recorded-heads.ts). Under the projection lock, after the seal: catch-ups are
   * serialized, so a later one never records an older head than an earlier one. A project this
   * catch-up `moved` (a projection applied its events) is written without reading the file
   * first: the head moved, so the copy is stale (at worst a projection ahead of the others had
   * recorded it, and only who holds it changes); the read was ~0.1 ms of every item write.
   */
  private recordHeads(
    heads: ReadonlyMap<
      string,
      { positions: ReadonlyMap<string, ProjectionPosition | null>; moved: boolean }
    >,
  ): void {
    for (const [project, { positions, moved }] of heads) {
      const furthest = furthestHead(positions);
      if (!furthest) continue;
      const stored = moved ? null : readRecordedHead(this.paths.stateDir, project);
      if (
        stored &&
        stored.seq === furthest.seq &&
        stored.head === furthest.head &&
        stored.by === furthest.by
      )
        continue;
      writeRecordedHead(this.paths.stateDir, project, furthest);
    }
  }

  private withProjectionLock<T>(fn: () => Promise<T>): Promise<T> {
    return withLock(projectionLockPath(this.paths.stateDir), async () => {
      try {
        await this.refreshOptions();
        return await fn();
      } finally {
        // Whatever fn changed is committed or rolled back now (or a crashed holder's odd mark
        // is left): readers waiting on the generation may read again.
        endProjectionChange(this.paths.stateDir);
      }
    });
  }
}

/** Runs one projector step, turning an untyped failure into PROJECTION_FAILED naming the projector. */
async function guard<T>(projector: Projector, step: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isMemError(error)) throw error;
    throw new MemError(
      'PROJECTION_FAILED',
      `the ${projector.name} projection failed to ${step}: ${(error as Error).message}`,
      { projector: projector.name, step },
      { cause: error },
    );
  }
}
