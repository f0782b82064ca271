import { MemError, type Payload } from '@mem/core';
import type { AppendFold } from './append-fold.js';
import { ProvenanceCheck } from './provenance.js';

/** Where the payloads of an append came from, for errors that name the input line. */
export interface AppendInput {
  /** The input's name (a file, `stdin`). */
  file?: string;
  /** The input line of each payload (default: its 1-based position). */
  lines?: readonly number[];
}

/** Whether assertAppendProvenance reads the log for this batch: only when it holds a memory. */
export function provenanceReadsLog(parsed: readonly Payload[]): boolean {
  return parsed.some((payload) => payload.type === 'memory');
}

/**
 * Refuses (PROVENANCE_FAILED, nothing written) a batch holding a memory that `mem verify` could
 * never pass: every parent must resolve to a node of the right level in the log or earlier in the
 * batch. The payloads are validated already (validateBatch). Asks for the log's fold
 * (append-fold.ts) only when the batch holds a memory at all; `inFlight` are the payloads
 * of batches queued before it and not yet durable, counted as if in the log (the caller fails
 * this batch if one fails).
 */
export async function assertAppendProvenance(
  fold: () => Promise<AppendFold>,
  project: string,
  parsed: readonly Payload[],
  input: AppendInput = {},
  inFlight: readonly Payload[] = [],
): Promise<void> {
  const lineOf = (index: number) => input.lines?.[index] ?? index + 1;
  const at = (index: number) => ({
    ...(input.file !== undefined ? { file: input.file } : {}),
    line: lineOf(index),
  });
  if (!provenanceReadsLog(parsed)) return;
  const check = new ProvenanceCheck(project, (await fold()).provenance);
  for (const payload of inFlight) check.note(payload);
  parsed.forEach((payload, index) => {
    const found = check.admit(payload);
    if (!found) return;
    const where = `${input.file !== undefined ? `${input.file}:` : ''}line ${lineOf(index)}`;
    throw new MemError(
      'PROVENANCE_FAILED',
      `${where}: memory.${found.field}: ${found.message}; nothing was appended`,
      {
        ...at(index),
        project,
        field: found.field,
        problem: found.code,
      },
    );
  });
}
