import { existsSync } from 'node:fs';
import type { EventType } from '@mem/core';
import type { ProjectionOutput, Projector } from '@mem/engine';
import { applyEvents, commitPending, readPosition } from './apply-events.js';
import { namingFullDisk } from './disk-full.js';
import type { ItemStoreHandle } from './handle.js';
import { openStore } from './open-store.js';
import { resetStore } from './reset-store.js';
import { sealStore } from './seal.js';
import { OUTPUT_PATH, storeFiles } from './store-files.js';

/** Bump when the same log would give different bytes (schema, statements, canonical copy). */
const VERSION = 1;

/** Every event type except `recovery`, which only advances the position. */
const HANDLES: readonly EventType[] = [
  'run',
  'chunk',
  'gate',
  'evidence',
  'memory',
  'run_end',
  'reference',
  'tombstone',
  'principal_added',
  'project_added',
  'member_added',
  'member_removed',
  'token_minted',
  'token_revoked',
  'ingest_accepted',
  'ingest_finished',
];

/** The SQLite item store projection: `.mem/items.sqlite`. */
export const projectorSqlite: Projector<ItemStoreHandle> = {
  name: 'sqlite',
  version: VERSION,
  handles: HANDLES,
  async init(target) {
    return namingFullDisk(target.stateDir, 'open', () => openStore(target.stateDir, VERSION));
  },
  async position(handle, project) {
    return readPosition(handle, project);
  },
  async project(handle, project, events) {
    return namingFullDisk(handle.stateDir, 'write', () => applyEvents(handle, project, events));
  },
  async seal(handle) {
    return namingFullDisk(handle.stateDir, 'seal', () => sealStore(handle, VERSION));
  },
  async outputs(target): Promise<ProjectionOutput[]> {
    const { live } = storeFiles(target.stateDir);
    return existsSync(live) ? [{ path: OUTPUT_PATH, absolutePath: live }] : [];
  },
  async close(handle) {
    if (!handle.db.open) return;
    // Applied but unsealed work is kept: the file stays marked unsealed, and init seals it.
    try {
      await namingFullDisk(handle.stateDir, 'write', () => commitPending(handle));
    } finally {
      handle.db.close();
    }
  },
  async reset(target, project) {
    return namingFullDisk(target.stateDir, 'reset', () => resetStore(target.stateDir, VERSION, project));
  },
};
