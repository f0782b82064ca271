import type { EventLog, VerifyResult } from '@mem/log';
import { catchUpProject, type OpenProjector } from './catch-up.js';
import { liveRecordedHeads } from './live-heads.js';
import { compareOutputs, type ParityDifference } from './parity.js';
import type { ProjectionTarget, Projector } from './projector.js';
import type { RecordedHead } from './recorded-heads.js';
import { ProvenanceCheck, type ProvenanceProblem } from './provenance.js';
import { findTailBreak } from './tail-check.js';

export interface ProjectVerify {
  project: string;
  chain: VerifyResult;
  provenance: {
    ok: boolean;
    memories: number;
    problems: ProvenanceProblem[];
    total: number;
    skipped?: string;
  };
}

export interface VerifyReport {
  ok: boolean;
  projects: ProjectVerify[];
  parity: { ok: boolean; files: number; differences: ParityDifference[]; skipped?: string };
}

export interface VerifyInput {
  log: EventLog;
  projectors: readonly Projector[];
  live: ProjectionTarget;
  scratch: ProjectionTarget;
  project?: string | undefined;
  /**
   * Brings the live projections up to the log once every chain holds, before parity. Trigger:
   * a projection a narrower process left behind (administration keeps only SQLite current, so
   * the vault and pgvector lag on `_system`). Why: behind is not different; only a tampered log
   * must not be caught up, and the chain check has ruled that out by then.
   */
  catchUp?: () => Promise<unknown>;
}

/**
 * `mem verify`: (1) every chain, reporting the first break's segment and line, and its tail
 * against every head the live projections recorded (an edited, deleted or truncated last line
 * breaks nothing the walk can see); (2) the
 * provenance graph of every project whose chain holds; (3) parity: every projection rebuilt
 * into `scratch` from the log must equal the live one byte for byte, file by file.
 */
export async function verifyRoot(input: VerifyInput): Promise<VerifyReport> {
  const projects = input.project !== undefined ? [input.project] : await input.log.projects();
  const results: ProjectVerify[] = [];
  const recorded = await liveRecordedHeads(input.projectors, input.live, projects);
  for (const project of projects) {
    const chain = await verifyChain(input.log, project, recorded.get(project) ?? []);
    if (!chain.ok) {
      results.push({
        project,
        chain,
        provenance: {
          ok: true,
          memories: 0,
          problems: [],
          total: 0,
          skipped: 'the chain is broken',
        },
      });
      continue;
    }
    const check = new ProvenanceCheck(project);
    for await (const { event, segment, line } of input.log.read(project))
      check.apply(event, { segment, line });
    results.push({
      project,
      chain,
      provenance: {
        ok: check.total === 0,
        memories: check.memories,
        problems: check.problems,
        total: check.total,
      },
    });
  }

  const chainsOk = results.every((r) => r.chain.ok);
  if (chainsOk) await input.catchUp?.();
  const parity = chainsOk
    ? await checkParity(input)
    : {
        ok: false,
        files: 0,
        differences: [],
        skipped: 'a chain is broken: nothing can be rebuilt from it',
      };
  const ok = chainsOk && results.every((r) => r.provenance.ok) && parity.ok;
  return { ok, projects: results, parity };
}

/** The chain walk, then the tail against each recorded head: the first disagreement is the break. */
async function verifyChain(
  log: EventLog,
  project: string,
  heads: readonly RecordedHead[],
): Promise<VerifyResult> {
  const chain = await log.verify(project);
  if (!chain.ok) return chain;
  for (const head of heads) {
    const found = await findTailBreak(log, project, head);
    if (found) return { ...chain, ok: false, break: found };
  }
  return chain;
}

async function checkParity(input: VerifyInput): Promise<VerifyReport['parity']> {
  const allProjects = await input.log.projects();
  const differences: ParityDifference[] = [];
  let files = 0;
  for (const projector of input.projectors) {
    const handle = await projector.init(input.scratch);
    let rebuiltDigest: Record<string, string> | null = null;
    try {
      const open: OpenProjector[] = [{ projector, handle }];
      for (const project of allProjects)
        await catchUpProject(input.log, project, open, { applied: [] });
      await projector.seal(handle);
      if (projector.digest) rebuiltDigest = await projector.digest(handle);
    } finally {
      await projector.close(handle);
    }
    if (projector.digest && rebuiltDigest) {
      const liveHandle = await projector.init(input.live);
      try {
        const liveDigest = await projector.digest(liveHandle);
        for (const table of [
          ...new Set([...Object.keys(liveDigest), ...Object.keys(rebuiltDigest)]),
        ].sort()) {
          files += 1;
          if (liveDigest[table] !== rebuiltDigest[table]) {
            differences.push({
              projector: projector.name,
              path: `${projector.name}:${table}`,
              problem: 'differs',
              message: `table ${table} of the ${projector.name} projection differs from a rebuild from the log (digest ${liveDigest[table]?.slice(0, 12) ?? 'missing'} vs ${rebuiltDigest[table]?.slice(0, 12) ?? 'missing'})`,
            });
          }
        }
      } finally {
        await projector.close(liveHandle);
      }
    }
    const keep = (path: string) =>
      input.project === undefined ||
      !path.startsWith('vault/') ||
      path.startsWith(`vault/${input.project}/`);
    const live = (await projector.outputs(input.live)).filter((o) => keep(o.path));
    const rebuilt = (await projector.outputs(input.scratch)).filter((o) => keep(o.path));
    files += new Set([...live, ...rebuilt].map((o) => o.path)).size;
    differences.push(...(await compareOutputs(projector.name, live, rebuilt)));
  }
  return { ok: differences.length === 0, files, differences };
}
