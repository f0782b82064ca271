import type { RecordSource } from '@mem/chunk';
import { readFailingResult, lineSignatures } from '@mem/core';

/** One signature as the measure saw it. */
export interface SignatureSighting {
  sig_sha: string;
  signature: string;
  /** Failing results it was taken from. */
  count: number;
  /** Distinct sessions (record source URIs) it was seen in, sorted. */
  sessions: string[];
  /** Up to three distinct raw lines it normalised from, in first-seen order: what a reader checks. */
  raws: string[];
}

/** What the normaliser makes of the failing tool results of some transcripts. */
export interface SignatureEvalReport {
  sessions: number;
  tool_results: number;
  failing_results: number;
  /** Failing results that yielded at least one signature. */
  signed_results: number;
  distinct_signatures: number;
  /** Signatures seen in two sessions or more: where tier 1 can fire. */
  recurring_across_sessions: number;
  /** Signatures seen more than once, but in one session only. */
  recurring_within_session: number;
  /** Signatures that normalised from more than one distinct raw line (each worth reading). */
  merged_variants: number;
  /** Every recurring signature, most sessions first (ties: count, then sha). */
  recurring: SignatureSighting[];
}

/**
 * Reads every record of `sources` once and measures the failure-signature normaliser on the
 * failing tool results: counts, and the recurring signatures with the raw lines they merged,
 * so a reader can check that a merge is one failure and a split two.
 */
export async function evalSignatures(
  sources: readonly RecordSource[],
): Promise<SignatureEvalReport> {
  const sessions = new Set<string>();
  const sightings = new Map<string, SignatureSighting & { sessionSet: Set<string> }>();
  let toolResults = 0;
  let failing = 0;
  let signed = 0;
  for (const source of sources) {
    for await (const record of source) {
      sessions.add(record.provenance.source);
      if (record.role !== 'tool_result') continue;
      toolResults += 1;
      const result = readFailingResult(record.text);
      if (result === null) continue;
      failing += 1;
      const signatures = lineSignatures(result.salient, result.tool);
      if (signatures.length > 0) signed += 1;
      for (const sig of signatures) {
        let seen = sightings.get(sig.sigSha);
        if (!seen) {
          seen = {
            sig_sha: sig.sigSha,
            signature: sig.signature,
            count: 0,
            sessions: [],
            raws: [],
            sessionSet: new Set(),
          };
          sightings.set(sig.sigSha, seen);
        }
        seen.count += 1;
        seen.sessionSet.add(record.provenance.source);
        if (seen.raws.length < 3 && !seen.raws.includes(sig.raw)) seen.raws.push(sig.raw);
      }
    }
  }
  const all = [...sightings.values()].map(({ sessionSet, ...s }) => ({
    ...s,
    sessions: [...sessionSet].sort(),
  }));
  const recurring = all
    .filter((s) => s.sessions.length > 1)
    .sort(
      (a, b) =>
        b.sessions.length - a.sessions.length ||
        b.count - a.count ||
        a.sig_sha.localeCompare(b.sig_sha),
    );
  return {
    sessions: sessions.size,
    tool_results: toolResults,
    failing_results: failing,
    signed_results: signed,
    distinct_signatures: all.length,
    recurring_across_sessions: recurring.length,
    recurring_within_session: all.filter((s) => s.sessions.length === 1 && s.count > 1).length,
    merged_variants: all.filter((s) => s.raws.length > 1).length,
    recurring,
  };
}
