import type { CitedChunk, Grounding } from '@mem/ingest';
import { citedKey } from '@mem/ingest/definitions';
import { short, type Finding, type LiveLine } from './finding.js';

/*
 * Stale grounding: a live line whose cited evidence no longer reads the same from its source.
 * The digest at ingest is the evidence sha (the chunk's content sha); `checkCitedSources` in
 * @mem/ingest re-reads (where its stamps moved) and re-chunks the source to judge it. One finding per line, naming the
 * line and each stale evidence, so the same staleness is the same finding on every scan. The
 * explanation names the source and records, never the text.
 */

/** The stale-grounding findings among `lines`, given what `grounding` found of each cited chunk. */
export function detectStaleGrounding(
  lines: readonly LiveLine[],
  evidence: ReadonlyMap<string, CitedChunk>,
  grounding: ReadonlyMap<string, Grounding>,
): Finding[] {
  const findings: Finding[] = [];
  for (const line of lines) {
    const stale = [...new Set(line.parents ?? [])]
      .map((sha) => evidence.get(sha))
      .filter((c) => c !== undefined)
      .map((c) => ({ chunk: c, state: grounding.get(citedKey(c)) }))
      .filter((s) => s.state === 'changed' || s.state === 'gone')
      .sort((a, b) => a.chunk.sha256.localeCompare(b.chunk.sha256));
    if (stale.length === 0) continue;
    const why = stale.map(
      ({ chunk, state }) =>
        `evidence ${short(chunk.sha256)} (${chunk.source}, records ${chunk.start}-${chunk.end}) ${state === 'gone' ? 'is gone: its source no longer yields that session' : 'changed: its records no longer chunk to the digest read at ingest'}`,
    );
    findings.push({
      kind: 'stale_grounding',
      subjects: [line.sha256, ...stale.map((s) => s.chunk.sha256)].sort(),
      explanation: `line ${short(line.sha256)} cites ${why.join('; ')}`,
    });
  }
  return findings;
}
