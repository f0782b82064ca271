import type { ProjectionPosition } from '@mem/engine';
import type {
  ChunkRef,
  EvidenceRef,
  NoteFold,
  ReferenceRef,
  ReviewRef,
  RunRef,
  SkillRef,
  SuccessorRef,
  VaultFold,
} from './fold-state.js';
import { stableJson } from './stable-json.js';

/** Bump when the same log would render different bytes: a stored different version forces a rebuild. */
export const VAULT_PROJECTOR_VERSION = 10;

/** What `<stateDir>/vault/<project>.json` holds: the fold, the position it reflects, and the options it was rendered with. */
export interface VaultState {
  version: number;
  emitEvidenceNotes: boolean;
  position: ProjectionPosition;
  fold: VaultFold;
}

function record<V>(map: ReadonlyMap<string, V>): Record<string, V> {
  return Object.fromEntries(map);
}

function map<V>(value: unknown): Map<string, V> {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new TypeError('expected an object');
  return new Map(Object.entries(value as Record<string, V>));
}

/** The state file's bytes: sorted keys at every depth, so the same fold is the same file. */
export function encodeVaultState(state: VaultState): string {
  const { fold } = state;
  return stableJson({
    projector: 'vault',
    version: state.version,
    emit_evidence_notes: state.emitEvidenceNotes,
    position: state.position,
    project: fold.project,
    runs: record(fold.runs),
    queries: record(fold.queries),
    index: fold.index,
    evidence: record(fold.evidence),
    l1_memories: record(fold.l1Memories),
    memory_parents: record(fold.memoryParents),
    tombstones: record(fold.tombstones),
    chunks: record(fold.chunks),
    forgotten: record(fold.forgotten),
    superseded: record(fold.superseded),
    forgotten_evidence: record(fold.forgottenEvidence),
    reviews: record(fold.reviews),
    skills: record(fold.skills),
    references: record(fold.references),
  });
}

/** Reads a state file's text back; throws TypeError/SyntaxError on anything that is not one (callers treat it as unreadable). */
export function decodeVaultState(text: string): VaultState {
  const raw = JSON.parse(text) as Record<string, unknown>;
  const position = raw['position'] as ProjectionPosition | undefined;
  if (
    raw['projector'] !== 'vault' ||
    typeof raw['version'] !== 'number' ||
    typeof raw['emit_evidence_notes'] !== 'boolean' ||
    typeof raw['project'] !== 'string' ||
    typeof position?.seq !== 'number' ||
    typeof position.head !== 'string'
  ) {
    throw new TypeError('not a vault projector state');
  }
  return {
    version: raw['version'],
    emitEvidenceNotes: raw['emit_evidence_notes'],
    position: { seq: position.seq, head: position.head },
    fold: {
      project: raw['project'],
      runs: map<RunRef>(raw['runs']),
      queries: map<NoteFold>(raw['queries']),
      index: (raw['index'] ?? null) as NoteFold | null,
      evidence: map<EvidenceRef>(raw['evidence']),
      l1Memories: map<string>(raw['l1_memories']),
      memoryParents: map<string[]>(raw['memory_parents']),
      tombstones: map<string>(raw['tombstones']),
      chunks: map<ChunkRef>(raw['chunks']),
      forgotten: map<string>(raw['forgotten']),
      superseded: map<SuccessorRef>(raw['superseded']),
      forgottenEvidence: map<string>(raw['forgotten_evidence']),
      // A state written before the review queue has none open.
      reviews: map<ReviewRef>(raw['reviews'] ?? {}),
      // A state written before skills has none.
      skills: map<SkillRef>(raw['skills'] ?? {}),
      // A state written before reference notes has none.
      references: map<ReferenceRef>(raw['references'] ?? {}),
    },
  };
}
