/** Turns the parsed JSON values of one transcript file into records, through a `RecordSink`. */
export interface TranscriptReader {
  /** One JSON value read at `line` (a glued line hands over several, in order). */
  entry(value: unknown, line: number): void;
  /** End of file: flush whatever is still being merged. */
  finish(): void;
}

/** A skip-kind label from a value read off disk: bounded, so a hostile file cannot bloat the stats. */
export function kindLabel(prefix: string, value: unknown): string {
  const name = typeof value === 'string' && value !== '' ? value.slice(0, 40) : '(none)';
  return `${prefix}:${name}`;
}
