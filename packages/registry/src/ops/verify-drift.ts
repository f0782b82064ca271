import type { Engine, VerifyReport } from '@mem/engine';
import { vaultDrift, type VaultDrift } from './vault-capture-plan.js';

/**
 * Verify's parity, told per file and line where a vault note differs: a person who edited a
 * note sees which lines are uncaptured and what `mem vault capture` would do with them, not a
 * bare "differs". Only projects with a vault difference are planned (a plan reads the log).
 */
export async function withVaultDrift(
  engine: Engine,
  report: VerifyReport,
): Promise<VerifyReport & { parity: { drift: VaultDrift[] } }> {
  const projects = new Set<string>();
  for (const difference of report.parity.differences) {
    const match = /^vault\/([^/]+)\/[^/]+\.md$/.exec(difference.path);
    if (difference.projector === 'vault' && match) projects.add(match[1]!);
  }
  const drift: VaultDrift[] = [];
  for (const project of [...projects].sort()) drift.push(...(await vaultDrift(engine, project)));
  return { ...report, parity: { ...report.parity, drift } };
}
