import { fileURLToPath } from 'node:url';
import type { SourceRecord } from '@mem/chunk';
import type { RecordRole } from '@mem/chunk';

/** The real transcripts shipped with the repository (`test/fixtures/transcripts`). */
export const TRANSCRIPTS = fileURLToPath(
  new URL('../../../../test/fixtures/transcripts/', import.meta.url),
);

/** A shipped transcript by format folder and file name. */
export function transcript(kind: 'claude' | 'pi', name: string): string {
  return `${TRANSCRIPTS}${kind}/${name}`;
}

/** Every record of a source, in order. */
export async function collect(source: AsyncIterable<SourceRecord>): Promise<SourceRecord[]> {
  const out: SourceRecord[] = [];
  for await (const record of source) out.push(record);
  return out;
}

/** Records counted by role. */
export function countRoles(records: readonly SourceRecord[]): Partial<Record<RecordRole, number>> {
  const counts: Partial<Record<RecordRole, number>> = {};
  for (const r of records) counts[r.role] = (counts[r.role] ?? 0) + 1;
  return counts;
}

/** One JSONL text from values. */
export function jsonl(...values: unknown[]): string {
  return values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join('\n') + '\n';
}
