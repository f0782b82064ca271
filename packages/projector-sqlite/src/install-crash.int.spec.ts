import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { contentSha256 } from '@mem/core';
import { projectStretch, type ProjectionTarget } from '@mem/engine';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chainEvents, fixturePayloads, projected, tempRoot } from '../test/support.js';
import { canonicalBytes } from './canonical-bytes.js';
import { projectorSqlite } from './projector.js';

const A = 'alpha';
const B = 'beta';

/*
 * A rebuild killed with SIGKILL while it installs the new store (install-store.ts) leaves the
 * store as it was before the install or as the install made it, never a mix: SQLite's
 * integrity check passes, node_fts matches node, the rows are all of one side, and the next
 * seal finishes the rebuild into a rebuild's canonical bytes. A real process, killed at points
 * spread over its seal (FTS build, canonical copy, install).
 */
const here = import.meta.dirname;
const REBUILDER = `
  const { readFileSync } = await import('node:fs');
  const { projectStretch } = await import(${JSON.stringify(join(here, '../../engine/dist/index.js'))});
  const { projectorSqlite } = await import(${JSON.stringify(join(here, '../dist/index.js'))});
  const [stateDir, eventsFile, project] = process.argv.slice(1);
  const target = { stateDir, vaultDir: stateDir + '/../vault', options: {} };
  await projectorSqlite.reset(target);
  const handle = await projectorSqlite.init(target);
  await projectStretch(projectorSqlite, handle, project, JSON.parse(readFileSync(eventsFile, 'utf8')));
  process.stdout.write('sealing\\n');
  await projectorSqlite.seal(handle);
  process.stdout.write('sealed\\n');
  await projectorSqlite.close(handle);
`;

/** The fixture and `count` evidence texts of `project`: a store big enough to be caught mid-install. */
function logOf(project: string, count: number) {
  const [run] = fixturePayloads();
  const evidence = Array.from({ length: count }, (_, i) => {
    const text = `${project} crash drill evidence ${i}: ${'the install copies every page of the store. '.repeat(4)}`;
    return {
      type: 'evidence',
      run_id: run!.run_id,
      level: 'L0',
      t: 100 + i,
      source: 'claude:crash-drill',
      text,
      sha256: contentSha256(text),
    };
  });
  return projected(chainEvents(project, [...fixturePayloads(), ...evidence]));
}

/** Runs the rebuilder; with `killAfterMs`, SIGKILLs it that long after it starts its seal. */
function rebuildInChild(
  target: ProjectionTarget,
  eventsFile: string,
  project: string,
  killAfterMs?: number,
): Promise<{ killed: boolean; sealMs: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--input-type=module', '-e', REBUILDER, target.stateDir, eventsFile, project],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    let sealing = 0;
    let sealMs = 0;
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (sealing === 0 && out.includes('sealing\n')) {
        sealing = performance.now();
        if (killAfterMs !== undefined) setTimeout(() => child.kill('SIGKILL'), killAfterMs);
      }
      if (sealMs === 0 && out.includes('sealed\n')) sealMs = performance.now() - sealing;
    });
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve({ killed: true, sealMs });
      else if (code === 0) resolve({ killed: false, sealMs });
      else reject(new Error(`rebuilder exited ${code}: ${err}`));
    });
  });
}

/** What the store holds now, read the way the next writer reads it (WAL recovery included). */
function stateOf(target: ProjectionTarget): { projects: string[]; nodes: number } {
  const db = new Database(join(target.stateDir, 'items.sqlite'));
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.exec(`INSERT INTO node_fts (node_fts, rank) VALUES ('integrity-check', 1)`);
    const projects = (
      db.prepare('SELECT project FROM projection_state ORDER BY project').all() as {
        project: string;
      }[]
    ).map((r) => r.project);
    const { n } = db.prepare('SELECT count(*) AS n FROM node').get() as { n: number };
    return { projects, nodes: n };
  } finally {
    db.close();
  }
}

async function rebuildHere(
  target: ProjectionTarget,
  project: string,
  events: ReturnType<typeof logOf>,
) {
  await projectorSqlite.reset(target);
  const handle = await projectorSqlite.init(target);
  await projectStretch(projectorSqlite, handle, project, events);
  await projectorSqlite.seal(handle);
  await projectorSqlite.close(handle);
}

describe('a rebuild killed while it installs the new item store', () => {
  let root: ReturnType<typeof tempRoot>;
  beforeEach(() => {
    root = tempRoot();
  });
  afterEach(() => root.cleanup());

  it('leaves the old store or the new one, whole, and the next seal finishes the rebuild', async () => {
    const alpha = logOf(A, 3000);
    const beta = logOf(B, 3000);
    const eventsFile = join(root.root, 'beta.json');
    writeFileSync(eventsFile, JSON.stringify(beta));
    // The canonical bytes of beta's rebuild, and how long the child's seal takes.
    await rebuildHere(root.target, A, alpha);
    const { sealMs } = await rebuildInChild(root.target, eventsFile, B);
    const rebuilt = canonicalBytes(join(root.target.stateDir, 'items.sqlite'));
    const full = stateOf(root.target);
    expect(full.projects).toEqual([B]);

    const seen = new Set<string>();
    for (const share of [0.2, 0.4, 0.6, 0.75, 0.9, 1.0]) {
      await rebuildHere(root.target, A, alpha);
      const { killed } = await rebuildInChild(root.target, eventsFile, B, share * sealMs);
      const state = stateOf(root.target);
      // Killed before the seal's commit of the replay: the empty store the reset installed;
      // after it: beta's rows, all of them, as replayed in place or as installed.
      expect([{ projects: [], nodes: 0 }, full]).toContainEqual(state);
      seen.add(killed ? 'killed' : 'finished');

      // The next catch-up: it replays what the store lacks, and its seal installs the copy.
      const handle = await projectorSqlite.init(root.target);
      if (state.nodes === 0) await projectStretch(projectorSqlite, handle, B, beta);
      await projectorSqlite.seal(handle);
      await projectorSqlite.close(handle);
      expect(canonicalBytes(join(root.target.stateDir, 'items.sqlite')).equals(rebuilt)).toBe(true);
    }
    expect(seen.has('killed')).toBe(true);
  }, 600_000);
});
