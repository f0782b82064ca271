import type { LogEvent } from '@mem/core';
import { DerivedManifest } from './derived.js';

/** One L0 evidence record whose text repeats a registered derived artifact. */
export interface DerivedEvidence {
  project: string;
  /** The evidence event's seq. */
  seq: number;
  /** The chunk's sha: what L1 memories cite as a parent. */
  chunk: string;
  /** `skill:<name>` or `reference:<source>#<heading path>`. */
  artifact: string;
  /** The seqs of the L1 memories that cite the chunk as a parent. */
  cited_by: number[];
}

export interface DerivedAudit {
  project: string;
  ok: boolean;
  artifacts: number;
  evidence: number;
  problems: DerivedEvidence[];
}

/**
 * The cycle guard's audit (`mem verify --derived-filter`, seed 001 M4.2): no L0 evidence of a
 * project may repeat a skill or reference text registered before it was written, by the very
 * shingle match the ingest uses. Folded in log order: an artifact can only be pasted once it
 * exists, so evidence older than a skill (the lines the skill was drawn from) is never blamed.
 * Reads the log, not a projection: a skill's text lives only in its `skill_drafted` event.
 */
export async function auditDerivedEvidence(
  project: string,
  events: AsyncIterable<{ event: LogEvent }>,
): Promise<DerivedAudit> {
  const manifest = new DerivedManifest();
  const problems = new Map<string, DerivedEvidence>();
  let evidence = 0;
  for await (const { event } of events) {
    if (event.type === 'skill_drafted') manifest.register(event.text, `skill:${event.name}`);
    else if (event.type === 'reference')
      manifest.register(event.text, `reference:${[event.source, ...event.heading_path].join('#')}`);
    else if (event.type === 'evidence') {
      evidence += 1;
      const artifact = manifest.matchedArtifact(event.text);
      if (artifact !== null && !problems.has(event.sha256))
        problems.set(event.sha256, {
          project,
          seq: event.seq,
          chunk: event.sha256,
          artifact,
          cited_by: [],
        });
    } else if (event.type === 'memory' && event.level === 'L1')
      for (const parent of event.parents) problems.get(parent)?.cited_by.push(event.seq);
  }
  const found = [...problems.values()];
  return {
    project,
    ok: found.length === 0,
    artifacts: manifest.artifacts,
    evidence,
    problems: found,
  };
}
