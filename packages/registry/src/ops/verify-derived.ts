import type { Engine } from '@mem/engine';
import type { DerivedAudit } from '@mem/ingest';
import { loadIngest } from '../ingest-module.js';

/**
 * `mem verify --derived-filter`: the cycle guard audited per project verify walked. Only a
 * project whose chain holds is read (a broken chain already fails verify, and its events past
 * the break are not to be trusted); the verdict joins the report's.
 */
export async function withDerivedFilter<R extends VerifiedProjects>(
  engine: Engine,
  report: R,
): Promise<R & { derived: DerivedAudit[] }> {
  const derived: DerivedAudit[] = [];
  const { auditDerivedEvidence } = await loadIngest();
  for (const { project, chain } of report.projects)
    if (chain.ok) derived.push(await auditDerivedEvidence(project, engine.read(project)));
  return { ...report, ok: report.ok && derived.every((d) => d.ok), derived };
}

interface VerifiedProjects {
  ok: boolean;
  projects: { project: string; chain: { ok: boolean } }[];
}
