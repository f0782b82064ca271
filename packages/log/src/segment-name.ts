const SEGMENT_NAME = /^(\d{6})\.jsonl$/;

/** The name of a project's first segment: it always exists and carries the project's lock. */
export const FIRST_SEGMENT = '000001.jsonl';

/** `segmentName(2)` → `000002.jsonl`. */
export function segmentName(index: number): string {
  return `${String(index).padStart(6, '0')}.jsonl`;
}

/** The 1-based index of a segment file name, or null when `name` is not a segment. */
export function segmentIndex(name: string): number | null {
  const match = SEGMENT_NAME.exec(name);
  if (!match) return null;
  const index = Number(match[1]);
  return index >= 1 ? index : null;
}

/** The segment that follows `name`. */
export function nextSegmentName(name: string): string {
  const index = segmentIndex(name);
  if (index === null) throw new Error(`not a segment name: ${name}`);
  return segmentName(index + 1);
}

/** Segment names among directory entries, in log order; anything else in the directory is ignored. */
export function sortSegments(entries: readonly string[]): string[] {
  return entries
    .filter((name) => segmentIndex(name) !== null)
    .sort((a, b) => (segmentIndex(a) ?? 0) - (segmentIndex(b) ?? 0));
}
