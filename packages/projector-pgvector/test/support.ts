import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contentSha256, lineSignatures, type Payload, uniformLines } from '@mem/core';
import {
  projectStretch,
  type ProjectedEvent,
  type ProjectionTarget,
  type Projector,
} from '@mem/engine';
import { afterAll, afterEach } from 'vitest';
import { chainEvents, type ChainedEvent } from '../../../test/support/events.js';

export { chainEvents, type ChainedEvent };

/** Temp targets for one suite; `cleanup()` (afterEach/afterAll) removes them all. */
export function tempTargets(): { target(): ProjectionTarget; cleanup(): void } {
  const dirs: string[] = [];
  return {
    target() {
      const dir = mkdtempSync(join(tmpdir(), 'mem-pgvector-'));
      dirs.push(dir);
      return { stateDir: join(dir, '.mem'), vaultDir: join(dir, 'vault'), options: {} };
    },
    cleanup() {
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * One suite's temp targets and the recalls its tests open, cleaned up by the suite's own hooks
 * (registered where it is called, inside the describe): each recall passed to `opened` is closed
 * after every test, every target removed after the suite.
 */
export function suiteTargets(): {
  target(): ProjectionTarget;
  opened<R extends { close(): Promise<void> }>(recall: R): R;
} {
  const temp = tempTargets();
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const recall of open.splice(0)) await recall.close();
  });
  afterAll(() => temp.cleanup());
  return {
    target: () => temp.target(),
    opened: (recall) => {
      open.push(recall);
      return recall;
    },
  };
}

export function projected(events: readonly ChainedEvent[]): ProjectedEvent[] {
  return events.map(({ event, hash }) => ({ event, hash }));
}

/** Applies `logs` (project → payloads) at once, sealing; returns the chained events per project. */
export async function applyLogs(
  projector: Projector,
  target: ProjectionTarget,
  logs: Record<string, readonly Payload[]>,
): Promise<Record<string, ChainedEvent[]>> {
  const chained: Record<string, ChainedEvent[]> = {};
  const handle = await projector.init(target);
  try {
    for (const project of Object.keys(logs).sort()) {
      chained[project] = chainEvents(project, logs[project]!);
      await projectStretch(projector, handle, project, projected(chained[project]));
    }
    await projector.seal(handle);
  } finally {
    await projector.close(handle);
  }
  return chained;
}

/** Payload builders: one run answering `query`, its evidence, memories, references, tombstones. */
export const payload = {
  run(runId: string, query: string | null = 'infra-root-causes'): Payload {
    return query === null
      ? {
          type: 'run',
          run_id: runId,
          level: 'L2',
          query_id: null,
          input_level: 'L1',
          model: 'test',
          chunk_tokens: 5000,
          memory_budget: 1024,
          exit_gate: true,
        }
      : {
          type: 'run',
          run_id: runId,
          level: 'L1',
          query_id: query,
          input_level: 'chunk',
          model: 'test',
          chunk_tokens: 5000,
          memory_budget: 1024,
          exit_gate: false,
        };
  },
  evidence(runId: string, t: number, text: string): Payload {
    return {
      type: 'evidence',
      run_id: runId,
      level: 'L0',
      t,
      source: 'claude:session-1',
      text,
      sha256: contentSha256(text),
    };
  },
  memory(
    runId: string,
    t: number,
    text: string,
    parents: readonly string[],
    extra: { level?: 'L1' | 'L2'; symptom?: string; failures?: readonly string[] } = {},
  ): Payload {
    // Every line was drawn from `failures` (raw error lines), as the extractor would record it.
    const signatures = lineSignatures(extra.failures ?? []).map((s) => ({
      sig_sha: s.sigSha,
      signature: s.signature,
      tool: s.tool,
    }));
    return {
      type: 'memory',
      run_id: runId,
      level: extra.level ?? 'L1',
      t,
      text,
      tokens: text.split(/\s+/).length,
      parents: parents.map((p) => contentSha256(p)),
      sha256: contentSha256(text),
      lines: uniformLines(
        text,
        parents.map((p) => contentSha256(p)),
      ).map((line) => (signatures.length > 0 ? { ...line, signatures } : line)),
      ...(extra.symptom !== undefined ? { symptom: extra.symptom } : {}),
    };
  },
  reference(text: string, heading = 'Usage'): Payload {
    return {
      type: 'reference',
      level: 'R',
      source: `doc:kubectl.md#${heading.toLowerCase()}`,
      heading_path: ['kubectl', heading],
      text,
      sha256: contentSha256(text),
    };
  },
  tombstone(text: string): Payload {
    return { type: 'tombstone', target: contentSha256(text), reason: 'removed in a test' };
  },
};

export const sha = contentSha256;
