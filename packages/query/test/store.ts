import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contentSha256, uniformLines } from '@mem/core';
import { Engine } from '@mem/engine';
import {
  itemStorePath,
  openItemStore,
  projectorSqlite,
  type ItemStore,
} from '@mem/projector-sqlite';

/*
 * Test stores for the query package: payloads appended through the real log and projected by
 * the real SQLite projector into a temporary data root.
 */

export type Payload = Record<string, unknown>;

export const sha = (text: string): string => contentSha256(text);

export function run(runId: string, level: 'L1' | 'L2', queryId: string | null): Payload {
  return {
    type: 'run',
    run_id: runId,
    level,
    query_id: queryId,
    input_level: level === 'L1' ? 'chunk' : 'L1',
    model: 'heuristic',
    chunk_tokens: 5000,
    memory_budget: 1024,
    exit_gate: level === 'L2',
  };
}

export function evidence(
  runId: string,
  t: number,
  text: string,
  source = 'claude:session-1',
): Payload {
  return { type: 'evidence', run_id: runId, level: 'L0', t, source, text, sha256: sha(text) };
}

export function memory(
  runId: string,
  level: 'L1' | 'L2',
  t: number,
  text: string,
  parents: readonly string[],
  symptom?: string,
): Payload {
  return {
    type: 'memory',
    run_id: runId,
    level,
    t,
    text,
    tokens: text.split(/\s+/).length,
    parents: parents.map(sha),
    sha256: sha(text),
    lines: uniformLines(text, parents.map(sha)),
    ...(symptom ? { symptom } : {}),
  };
}

/** A memory whose lines rest on their own evidence: `[line text, evidence texts]` per line. */
export function linedMemory(
  runId: string,
  level: 'L1' | 'L2',
  t: number,
  lines: readonly (readonly [string, readonly string[]])[],
): Payload {
  const text = lines.map(([line]) => `- ${line}`).join('\n');
  const parents = [...new Set(lines.flatMap(([, from]) => from.map(sha)))];
  return {
    type: 'memory',
    run_id: runId,
    level,
    t,
    text,
    tokens: text.split(/\s+/).length,
    parents,
    sha256: sha(text),
    lines: lines.map(([line, from]) => ({ sha256: sha(line), parents: from.map(sha) })),
  };
}

export function reference(source: string, text: string): Payload {
  return { type: 'reference', level: 'R', source, heading_path: [], text, sha256: sha(text) };
}

export function tombstone(text: string, reason = 'removed on request'): Payload {
  return { type: 'tombstone', target: sha(text), reason };
}

/** Filler L1 memories about unrelated things, so BM25's IDF behaves as in a real store. */
export function filler(runId: string, count: number, startT = 100): Payload[] {
  const topics = [
    'garden hose',
    'coffee grinder',
    'bicycle chain',
    'piano tuning',
    'sourdough starter',
    'winter tyres',
    'bird feeder',
    'oil painting',
    'chess opening',
    'tea kettle',
  ];
  return Array.from({ length: count }, (_, i) => {
    const text = `Note ${i}: the ${topics[i % topics.length]} needed attention in week ${i + 1}.`;
    return [
      evidence(runId, startT + i, text),
      memory(runId, 'L1', startT + i, `- ${text}`, [text]),
    ];
  }).flat();
}

/**
 * `count` unrelated L1 notes (`r-filler-<i>`, query `filler-<i>`), one filler memory each: a
 * store of more than a few notes, so BM25's IDF and the relevance floor behave as in a real one.
 */
export function fillerNotes(count: number): Payload[] {
  return Array.from({ length: count }, (_, i) => [
    run(`r-filler-${i}`, 'L1', `filler-${i}`),
    ...filler(`r-filler-${i}`, 1, 100 + i),
  ]).flat();
}

export interface TestStore {
  root: string;
  items: ItemStore;
  /** Appends more events and reopens `items` over the caught-up store. */
  append(project: string, payloads: readonly Payload[]): Promise<void>;
  cleanup(): void;
}

export async function testStore(projects: Record<string, readonly Payload[]>): Promise<TestStore> {
  const root = mkdtempSync(join(tmpdir(), 'mem-query-'));
  const engine = new Engine({ root, projectors: [projectorSqlite] });
  for (const [project, payloads] of Object.entries(projects))
    await engine.append(project, payloads, { kind: 'test' });
  const open = () => openItemStore(itemStorePath(join(root, '.mem')));
  const store: TestStore = {
    root,
    items: open(),
    append: async (project, payloads) => {
      await engine.append(project, payloads, { kind: 'test' });
      store.items.close();
      store.items = open();
    },
    cleanup: () => {
      store.items.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
  return store;
}
