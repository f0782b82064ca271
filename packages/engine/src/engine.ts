import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { MemError, assertProjectName, type Writer } from '@mem/core';
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
  /** Overrides the remembered projection options (a rebuild with flags persists them). */
  projection?: ProjectionOptions;
  /** Segment size of new log segments (tests use tiny ones). */
  segmentBytes?: number;
  env?: NodeJS.ProcessEnv;
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

  constructor(options: EngineOptions) {
    this.paths = dataRootAt(options.root);
    this.projectors = options.projectors;
    this.log = new EventLog({ dir: this.paths.logDir, ...(options.segmentBytes ? { segmentBytes: options.segmentBytes } : {}) });
    this.options = options.projection ?? readProjectionOptions(this.paths.stateDir, options.env);
  }

  /** Where the live projections are written. */
  get target(): ProjectionTarget {
    return { stateDir: this.paths.stateDir, vaultDir: this.paths.vaultDir, options: this.options };
  }

  projectorNames(): string[] {
    return this.projectors.map((p) => p.name);
  }

  /** Appends a batch (validated whole, durable on return), then catches the projections up. */
  async append(project: string, payloads: readonly unknown[], writer: Writer): Promise<AppendResult> {
    const result = await this.log.append(project, payloads, writer);
    await this.catchUp([project]);
    return result;
  }

  /** Applies whatever the projections lack of `projects` (default: all), then seals the changed ones. */
  async catchUp(projects?: readonly string[]): Promise<CatchUpReport> {
    return this.withProjectionLock(async () => this.catchUpLocked(projects, this.projectors));
  }

  /** Drops the selected projections (of one project, or all) and replays the log into them. */
  async rebuild(options: RebuildOptions = {}): Promise<RebuildReport> {
    const selected = this.select(options.only);
    if (options.project !== undefined) assertProjectName(options.project);
    if (options.projection) {
      this.options = { ...this.options, ...options.projection };
      writeProjectionOptions(this.paths.stateDir, this.options);
    }
    return this.withProjectionLock(async () => {
      for (const projector of selected) await projector.reset(this.target, options.project);
      const projects = options.project !== undefined ? [options.project] : await this.log.projects();
      const report = await this.catchUpLocked(projects, selected);
      return { ...report, projectors: selected.map((p) => p.name), projects };
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
  private async catchUpLocked(projects: readonly string[] | undefined, selected: readonly Projector[]): Promise<CatchUpReport> {
    const open: OpenProjector[] = [];
    try {
      for (const projector of selected) open.push({ projector, handle: await projector.init(this.target) });
      const report: CatchUpReport = { applied: [] };
      const names = projects ?? (await this.log.projects());
      const changed = new Set<string>();
      for (const project of names) {
        for (const name of await catchUpProject(this.log, project, open, report)) changed.add(name);
      }
      for (const { projector, handle } of open) {
        if (changed.has(projector.name)) await projector.seal(handle);
      }
      return report;
    } finally {
      for (const { projector, handle } of open) await projector.close(handle);
    }
  }

  private withProjectionLock<T>(fn: () => Promise<T>): Promise<T> {
    return withFileLock(join(this.paths.stateDir, 'projections.lock'), fn);
  }
}
