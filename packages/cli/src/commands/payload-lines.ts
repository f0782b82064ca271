import { MemError, parsePayload, type Payload } from '@mem/core';

/**
 * Parses JSONL payload lines (blank lines ignored) and validates every one before anything
 * is written: the first bad line throws, naming its file, line number, field and expected shape.
 * Returns each payload with its input line, so later checks (provenance) name the line too.
 */
export function parsePayloadLines(
  text: string,
  file: string,
): { payloads: Payload[]; lines: number[] } {
  const payloads: Payload[] = [];
  const lines: number[] = [];
  const rows = text.split('\n');
  for (let index = 0; index < rows.length; index++) {
    const raw = rows[index]!.replace(/\r$/, '');
    if (raw.trim() === '') continue;
    const line = index + 1;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      throw new MemError(
        'INVALID_EVENT',
        `${file}:line ${line}: not valid JSON (${(error as Error).message}); expected one JSON object per line`,
        { file, line },
      );
    }
    payloads.push(parsePayload(value, { file, line }));
    lines.push(line);
  }
  if (payloads.length === 0) {
    throw new MemError(
      'INVALID_INPUT',
      `${file}: no events to append (expected JSONL payload lines)`,
      { file },
    );
  }
  return { payloads, lines };
}
