import type { EventType, LogEvent } from '@mem/core';

/**
 * Where a projector writes. The live projections of a data root use `<root>/.mem` and
 * `<root>/vault`; `mem verify` rebuilds into a temporary target and compares bytes.
 */
export interface ProjectionTarget {
  /** Droppable derived state: `<root>/.mem` (items.sqlite, pg/, cache/ live here). */
  stateDir: string;
  /** The Obsidian vault: `<root>/vault`. */
  vaultDir: string;
  /** Projector options that shape output (e.g. `emitEvidenceNotes`). Same options, same bytes. */
  options: ProjectionOptions;
}

export interface ProjectionOptions {
  /** Vault: also write one note per L0 evidence under `<project>/evidence/` and link it. */
  emitEvidenceNotes?: boolean;
}

/** An event handed to a projector, with the sha256 of its line: the chain head after it. */
export interface ProjectedEvent {
  event: LogEvent;
  hash: string;
}

/**
 * One stretch of a project's log as the engine hands it to a projector: already checked to be
 * one contiguous piece of the chain (batch-checks.ts, once per batch for every projector), and
 * cut down to the event types the projector `handles`.
 */
export interface ProjectionBatch {
  /** The stretch's events of a type in `handles`, in seq order; possibly none. */
  events: readonly ProjectedEvent[];
  /** Where the stretch starts: the projection must stand exactly here (null: nothing applied yet). */
  after: ProjectionPosition | null;
  /** The stretch's last event, handled or not: the position the projection records. */
  through: ProjectionPosition;
}

/** How far a projector has applied one project's log. */
export interface ProjectionPosition {
  seq: number;
  /** sha256 of the line at `seq`: must equal the `prev` of the next event. */
  head: string;
}

/** A file a projector owns, for byte comparison between the live and a rebuilt projection. */
export interface ProjectionOutput {
  /** Path relative to the target's root directory it lives under, '/'-separated, e.g. `.mem/items.sqlite`, `vault/demo/index.md`. */
  path: string;
  absolutePath: string;
}

/**
 * A projector: one small definition object with a pure per-event part kept apart from the
 * code that touches storage. `Handle` is whatever `init` opens (a database, a directory).
 *
 * Contract (tested for every projector by one suite): applying a log in any number of
 * `project` calls followed by `seal` yields the same bytes as one rebuild; applying an event
 * twice is refused by position, never double-counted; unknown event types throw loudly (the
 * engine's batch check, before any projector sees the batch).
 */
export interface Projector<Handle = unknown> {
  readonly name: string;
  /** Bump when output for the same log changes; a stored different version forces a rebuild. */
  readonly version: number;
  /** Event types that change this projection: the engine hands it no others, they only advance its position. */
  readonly handles: readonly EventType[];
  /**
   * Caught up by the reads that need it, not by an item write: such an append returns once the
   * other projections hold it (`catchUp: 'write-path'`), and a reader of this projection catches
   * it up first (`Engine.catchUp` without `writePath`). Why: embedding a write's items costs far
   * more than storing them (pgvector: ~80 % of an add_items with every projection), and nothing
   * an item write checks reads it.
   */
  readonly deferred?: boolean;
  /** Opens (creating and migrating) the projection at `target`. A stored version mismatch resets it. */
  init(target: ProjectionTarget): Promise<Handle>;
  /** Last applied position for `project`, or null when nothing of it was applied. */
  position(handle: Handle, project: string): Promise<ProjectionPosition | null>;
  /**
   * Applies `batch.events` of `project` and records `batch.through`; refuses (PROJECTION_FAILED,
   * changing nothing) unless the projection stands at `batch.after`.
   */
  project(handle: Handle, project: string, batch: ProjectionBatch): Promise<void>;
  /** Makes everything applied so far durable and canonical (called once after a catch-up). */
  seal(handle: Handle): Promise<void>;
  /** The files this projector owns at `target`, sorted by path (empty for a database projection). */
  outputs(target: ProjectionTarget): Promise<ProjectionOutput[]>;
  /**
   * For projections that are not files (a database): a digest per table, each a sha256 over
   * the table's rows in a total order (by sha), so parity compares content, never storage bytes.
   */
  digest?(handle: Handle): Promise<Record<string, string>>;
  close(handle: Handle): Promise<void>;
  /**
   * Optional: whether a handle `init` opened may serve the next catch-up too, checked under the
   * projection lock before it is reused (the projection at `target` is still the one it opened,
   * at this version). Projectors that define it are kept open by the engine between catch-ups
   * (an open costs more than a small batch); the others are opened and closed per operation.
   */
  reusable?(handle: Handle, target: ProjectionTarget): Promise<boolean>;
  /** Drops the projection at `target` (one project, or all). Must leave files it does not own alone. */
  reset(target: ProjectionTarget, project?: string): Promise<void>;
}
