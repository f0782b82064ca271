import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { MemError, assertProjectName, hasErrorCode, isMemError, type Writer } from '@mem/core';
import { EventLog, withFileLock, type AppendResult } from '@mem/log';
import { catchUpProject, type CatchUpReport, type OpenProjector } from './catch-up.js';
import { readProjectionOptions, writeProjectionOptions } from './options.js';
import type { ProjectionOptions, ProjectionTarget, Projector } from './projector.js';
import { dataRootAt, type DataRoot } from './root.js';
import { verifyRoot, type VerifyReport } from './verify.js';

export interface EngineOptions {
  /** Absolute data root. */
  root: string;
  /** The projections this engine keeps caught up, in the order they are applied. */
  projectors: readonly Projector[];
  /** Fixes the projection options instead of reading the vault's settings (scratch roots, tests). */
  projection?: ProjectionOptions;
  /** Segment size of new log segments (tests use tiny ones). */
  segmentBytes?: number;
}

export interface RebuildOptions {
  /** Only this project (default: every project in the log). */
  project?: string;
  /** Only these projectors by name (default: all). */
  only?: readonly string[];
  /** New projection options, remembered for later catch-ups. */
  projection?: ProjectionOptions;
}

export interface RebuildReport extends CatchUpReport {
  projectors: string[];
  projects: string[];
}

/**
 * The write path and the projection lifecycle of one data root: every append is followed by
 * an incremental catch-up of the projections; rebuild drops and replays; verify checks the
 * chain, the provenance graph and byte parity against a fresh rebuild.
 */
export class Engine {
  readonly paths: DataRoot;
  readonly log: EventLog;
  private readonly projectors: readonly Projector[];
  private options: ProjectionOptions;

  private readonly fixedOptions: ProjectionOptions | undefined;
  /** A catch-up waiting for the projection lock that has not read the log yet (see catchUp). */
  private queuedCatchUp: { projects: Set<string> | undefined; done: Promise<CatchUpReport> } | undefined;

  constructor(options: EngineOptions) {
    this.paths = dataRootAt(options.root);
    this.projectors = options.projectors;
    this.log = new EventLog({ dir: this.paths.logDir, ...(options.segmentBytes ? { segmentBytes: options.segmentBytes } : {}) });
    this.fixedOptions = options.projection;
    this.options = options.projection ?? readProjectionOptions(this.paths.vaultDir);
  }

  /** Where the live projections are written. */
  get target(): ProjectionTarget {
    return { stateDir: this.paths.stateDir, vaultDir: this.paths.vaultDir, options: this.options };
  }

  /** Re-reads the vault's settings: another process may have changed them by a rebuild. */
  private refreshOptions(): void {
    this.options = this.fixedOptions ?? readProjectionOptions(this.paths.vaultDir);
  }

  projectorNames(): string[] {
    return this.projectors.map((p) => p.name);
  }

  /**
   * Appends a batch (validated whole, durable on return), then catches the projections up. If
   * the catch-up fails the events are still in the log: the error says so and carries their seqs,
   * so a caller never retries (and duplicates) an append that succeeded.
   */
  async append(project: string, payloads: readonly unknown[], writer: Writer): Promise<AppendResult> {
    return this.projectAppended(await this.log.append(project, payloads, writer));
  }

  /**
   * The second half of append, for writers that append under a lock of their own and catch up
   * after releasing it: catches the projections up past `result`, or says PROJECTION_FAILED (or
   * NO_SPACE, naming the file) with the seqs that are durable all the same.
   */
  async projectAppended(result: AppendResult): Promise<AppendResult> {
    const { project } = result;
    try {
      await this.catchUp([project]);
    } catch (error) {
      const why = isMemError(error) ? error.message : (error as Error).message;
      // A full disk keeps its code, so every surface says NO_SPACE (HTTP 507) and names the file;
      // the seqs say it is not the append that failed.
      const code = hasErrorCode(error, 'NO_SPACE') ? 'NO_SPACE' : 'PROJECTION_FAILED';
      const cause = isMemError(error) ? error.details : {};
      throw new MemError(
        code,
        `appended seq ${result.first_seq}..${result.last_seq} to ${project} (durable), but catching the projections up failed: ${why}`,
        { ...(code === 'NO_SPACE' ? cause : {}), project, appended: result.appended, first_seq: result.first_seq, last_seq: result.last_seq },
        { cause: error },
      );
    }
    return result;
  }

  /**
   * Applies whatever the projections lack, then seals the changed ones: `projects` first, then
   * every other project of the log — a projector that reset itself on open (a new version, other
   * options) must be replayed for all projects, not only the one just written.
   */
  async catchUp(projects?: readonly string[]): Promise<CatchUpReport> {
    // Trigger: a catch-up of this process is already waiting for the lock and has not read the
    // log yet. Why: it will read the log after this caller's append, so it covers it; each
    // catch-up ends in a seal that rewrites the SQLite store, and concurrent writers (a server
    // accepting ingests) would otherwise seal once each, one after another. Outcome: the caller
    // joins it (its projects go first too; every project is caught up either way).
    const queued = this.queuedCatchUp;
    if (queued) {
      if (queued.projects && projects) for (const project of projects) queued.projects.add(project);
      else queued.projects = undefined;
      return queued.done;
    }
    const entry: { projects: Set<string> | undefined; done: Promise<CatchUpReport> } = { projects: projects ? new Set(projects) : undefined, done: Promise.resolve({ applied: [] }) };
    this.queuedCatchUp = entry;
    entry.done = this.withProjectionLock(async () => {
      // From here on the log is read: later callers must queue a catch-up of their own.
      if (this.queuedCatchUp === entry) this.queuedCatchUp = undefined;
      return this.catchUpLocked(entry.projects ? [...entry.projects] : undefined, this.projectors, { skipHeld: true });
    }).finally(() => {
      if (this.queuedCatchUp === entry) this.queuedCatchUp = undefined;
    });
    return entry.done;
  }

  /**
   * Catches up, then runs `read` while still holding the projection lock, so it sees the
   * projections exactly at the log head, never between a catch-up's commit and its seal.
   */
  async readCaughtUp<T>(projects: readonly string[], read: () => T | Promise<T>): Promise<T> {
    return this.withProjectionLock(async () => {
      await this.catchUpLocked(projects, this.projectors, { skipHeld: true });
      return read();
    });
  }

  /**
   * Runs `fn` holding an exclusive cross-process lock named `name` under `.mem/locks/`: for
   * writers that must not run twice at once on one project (the extractor reads its prior
   * state, then appends a whole run).
   */
  async exclusive<T>(name: string, fn: () => Promise<T>): Promise<T> {
    return withFileLock(join(this.paths.stateDir, 'locks', `${name}.lock`), fn);
  }

  /** Drops the selected projections (of one project, or all) and replays the log into them. */
  async rebuild(options: RebuildOptions = {}): Promise<RebuildReport> {
    const selected = this.select(options.only);
    if (options.project !== undefined) assertProjectName(options.project);
    return this.withProjectionLock(async () => {
      const previous = this.options;
      if (options.projection) this.options = { ...this.options, ...options.projection };
      try {
        for (const projector of selected) await guard(projector, 'reset', () => projector.reset(this.target, options.project));
        const projects = options.project !== undefined ? [options.project] : await this.log.projects();
        const report = await this.catchUpLocked(projects, selected);
        // Settings are kept only once a rebuild under them has succeeded.
        if (options.projection && !this.fixedOptions) writeProjectionOptions(this.paths.vaultDir, this.options);
        return { ...report, projectors: selected.map((p) => p.name), projects };
      } catch (error) {
        this.options = previous;
        throw error;
      }
    });
  }

  /** Chain, provenance and parity of every project (or one). */
  async verify(options: { project?: string } = {}): Promise<VerifyReport> {
    if (options.project !== undefined) assertProjectName(options.project);
    return this.withProjectionLock(async () => {
      const scratch = await mkdtemp(join(tmpdir(), 'mem-verify-'));
      try {
        return await verifyRoot({
          log: this.log,
          projectors: this.projectors,
          live: this.target,
          scratch: { stateDir: join(scratch, '.mem'), vaultDir: join(scratch, 'vault'), options: this.options },
          project: options.project,
        });
      } finally {
        await rm(scratch, { recursive: true, force: true });
      }
    });
  }

  private select(only?: readonly string[]): Projector[] {
    if (!only || only.length === 0) return [...this.projectors];
    const unknown = only.filter((name) => !this.projectors.some((p) => p.name === name));
    if (unknown.length > 0) {
      throw new MemError('INVALID_INPUT', `unknown projection ${unknown.map((u) => JSON.stringify(u)).join(', ')}: expected one of ${this.projectorNames().join(', ')}`, {
        field: 'only',
        expected: this.projectorNames(),
      });
    }
    return this.projectors.filter((p) => only.includes(p.name));
  }

  /**
   * Projectors are opened per locked operation and closed after it: another process may
   * seal (replace) a projection between two of ours, so a handle must never outlive the lock.
   */
  private async catchUpLocked(projects: readonly string[] | undefined, selected: readonly Projector[], options: { skipHeld?: boolean } = {}): Promise<CatchUpReport> {
    const open: OpenProjector[] = [];
    const report: CatchUpReport = { applied: [] };
    let failure: unknown = null;
    try {
      for (const projector of selected) {
        try {
          open.push({ projector, handle: await guard(projector, 'open', () => projector.init(this.target)) });
        } catch (error) {
          // Trigger: a projection whose store another live process holds (the embedded PGlite
          // of a running `mem serve`). Why: the log write already succeeded, and the holder
          // catches that projection up itself. Outcome: the others are caught up; the report
          // names the skipped one.
          if (!options.skipHeld || !hasErrorCode(error, 'CONFLICT')) throw error;
          (report.skipped ??= []).push({ projector: projector.name, reason: (error as Error).message });
        }
      }
      const all = await this.log.projects();
      const names = [...new Set([...(projects ?? []), ...all])].filter((p) => all.includes(p));
      const changed = new Set<string>();
      for (const project of names) {
        for (const name of await catchUpProject(this.log, project, open, report)) changed.add(name);
      }
      for (const { projector, handle } of open) {
        if (changed.has(projector.name)) await guard(projector, 'seal', () => projector.seal(handle));
      }
      return report;
    } catch (error) {
      failure = error;
      throw error;
    } finally {
      // Close every projector even if one fails, and never let a close error mask the first one.
      let closeFailure: unknown = null;
      for (const { projector, handle } of open) {
        try {
          await guard(projector, 'close', () => projector.close(handle));
        } catch (error) {
          closeFailure ??= error;
        }
      }
      if (closeFailure !== null && failure === null) throw closeFailure;
    }
  }

  private withProjectionLock<T>(fn: () => Promise<T>): Promise<T> {
    return withFileLock(join(this.paths.stateDir, 'projections.lock'), async () => {
      this.refreshOptions();
      return fn();
    });
  }
}

/** Runs one projector step, turning an untyped failure into PROJECTION_FAILED naming the projector. */
async function guard<T>(projector: Projector, step: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isMemError(error)) throw error;
    throw new MemError('PROJECTION_FAILED', `the ${projector.name} projection failed to ${step}: ${(error as Error).message}`, { projector: projector.name, step }, { cause: error });
  }
}
