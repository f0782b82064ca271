import { MemError } from '@mem/core';
import type { QueuedFinding, ReviewQueue } from './queue.js';

const PREFIX = /^[0-9a-f]{6,64}$/;

/**
 * The open finding ID names (its id or a unique prefix of 6+ hex). Unknown is NOT_FOUND, a
 * prefix naming several is AMBIGUOUS_REF listing them, and a finding already decided is
 * CONFLICT naming the decision: a finding is decided once.
 */
export function resolveOpenFinding(queue: ReviewQueue, project: string, id: string): QueuedFinding {
  const wanted = id.trim().toLowerCase();
  if (!PREFIX.test(wanted))
    throw new MemError(
      'INVALID_INPUT',
      'id: expected a finding id or a unique prefix of one (6+ hex)',
      {
        field: 'id',
        expected: '6 to 64 lowercase hex characters',
      },
    );
  const matches = [...queue.findings.values()].filter((f) => f.opened.id.startsWith(wanted));
  if (matches.length === 0)
    throw new MemError('NOT_FOUND', `id: no review finding in ${project} has the id ${wanted}`, {
      field: 'id',
      project,
    });
  if (matches.length > 1) {
    const candidates = matches.map((f) => f.opened.id).sort();
    throw new MemError(
      'AMBIGUOUS_REF',
      `id: ${wanted} names ${candidates.length} findings in ${project}: ${candidates.join(', ')}; give more of it`,
      { field: 'id', project, candidates },
    );
  }
  const finding = matches[0]!;
  if (finding.decided)
    throw new MemError(
      'CONFLICT',
      `id: finding ${finding.opened.id} in ${project} was already decided (${finding.decided.decision}, seq ${finding.decided.seq}); nothing was appended`,
      { field: 'id', project, id: finding.opened.id },
    );
  return finding;
}
