import { z } from 'zod';
import {
  countField,
  errorField,
  queryIdField,
  runIdField,
  sha256Field,
  sourceField,
  spanField,
  stepField,
} from './fields.js';
import { memoryLineField } from './memory-lines.js';
import { corpusNameField } from './corpus-payloads.js';

/*
 * Payload shapes, one per event type, in serialisation order (after `type`).
 * Seed 001 "Storage schemas" plus `run_id` on every extraction record.
 */

export const runShape = {
  run_id: runIdField,
  level: z.enum(['L1', 'L2']),
  query_id: queryIdField.nullable(),
  input_level: z.enum(['chunk', 'L1']),
  model: z.string().min(1),
  chunk_tokens: z.int().min(1),
  memory_budget: z.int().min(1),
  exit_gate: z.boolean(),
};

export const chunkShape = {
  run_id: runIdField,
  level: z.enum(['L0', 'L1']),
  t: stepField,
  source: sourceField,
  span: spanField,
  sha256: sha256Field,
  /**
   * sha256 of the chunk's text bytes as packed (absent before stop 35): a rewrite of a record in
   * letter case or whitespace moves it, not `sha256` (content identity), so grounding sees it.
   */
  bytes_sha256: sha256Field.optional(),
  /** Set when the chunk repeats a registered derived artifact (a skill, a reference text): it never reaches the gate. */
  derived: z.literal(true).optional(),
};

export const gateShape = {
  run_id: runIdField,
  level: z.enum(['L1', 'L2']),
  t: stepField,
  update: z.boolean(),
  exit: z.boolean(),
  think: z.string(),
  latency_ms: z.number().min(0),
};

export const evidenceShape = {
  run_id: runIdField,
  level: z.literal('L0'),
  t: stepField,
  source: sourceField,
  text: z.string().min(1),
  sha256: sha256Field,
};

export const memoryShape = {
  run_id: runIdField,
  level: z.enum(['L1', 'L2']),
  t: stepField,
  text: z.string().min(1),
  tokens: countField,
  parents: z
    .array(sha256Field)
    .min(1, 'expected at least one parent sha: a memory rests on evidence'),
  sha256: sha256Field,
  /** Version 2: the memory's addressable lines, one per line of `text` (memory-lines.ts). */
  lines: z.array(memoryLineField).min(1, 'expected at least one line: a memory states something'),
  /**
   * The failures this memory would explain, phrased as they show up (error text, codes), written
   * at extraction time so an error pasted as a query finds an answer written as prose. Absent
   * when the memory explains no failure. Projectors embed it; they never generate it.
   */
  symptom: z.string().min(1).optional(),
};

export const runEndShape = {
  run_id: runIdField,
  level: z.enum(['L1', 'L2']),
  chunks_seen: countField,
  chunks_used: countField,
  final_memory_sha: sha256Field.nullable(),
  error: errorField.optional(),
  /** Lines the run dropped because a `forgotten` tombstone refuses them (absent: none). */
  lines_forgotten: z.int().min(1).optional(),
};

export const referenceShape = {
  level: z.literal('R'),
  source: sourceField,
  heading_path: z.array(z.string()),
  text: z.string().min(1),
  sha256: sha256Field,
  /** The corpus (`mem ref add --name`) whose file this passage comes from; absent for references written outside one (eval stores). */
  corpus: corpusNameField.optional(),
};

export const tombstoneShape = {
  target: sha256Field,
  reason: z.string().min(1, 'expected a non-empty reason'),
};

/*
 * Version 2. Version 1 named `truncated_at` `offset`, which said neither what it was the offset
 * of nor that every byte from it on was cut; upcasters.ts renames it when a v1 line is read.
 */
export const recoveryShape = {
  segment: z.string().regex(/^\d{6}\.jsonl$/, 'expected a segment file name such as 000001.jsonl'),
  /** The byte offset in `segment` the torn tail was truncated at: the length kept. */
  truncated_at: countField,
  dropped_bytes: z.int().min(1),
  dropped_sha256: sha256Field,
};
