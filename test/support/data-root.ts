// Test support: reading and feeding a data root the way the CLI specs check it, on disk.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A project's whole log under `root`, its segments in order, byte for byte: what "nothing written" is checked against. */
export function logBytes(root: string, project: string): string {
  const dir = join(root, 'log', project);
  return readdirSync(dir)
    .sort()
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('');
}

/** The seq of a project's last event, read from its log file itself. */
export function logHeadSeq(root: string, project: string): number {
  const lines = logBytes(root, project).trimEnd().split('\n');
  return (JSON.parse(lines.at(-1)!) as { seq: number }).seq;
}

/**
 * `records` as a JSONL file under `root` (one JSON text a line), for `--file`: `name`, or a fresh
 * name each call so a spec's batches never overwrite each other. Returns its path.
 */
export function jsonlFile(
  root: string,
  records: readonly unknown[],
  name = `batch-${Math.random().toString(36).slice(2)}.jsonl`,
): string {
  const file = join(root, name);
  writeFileSync(file, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
  return file;
}
