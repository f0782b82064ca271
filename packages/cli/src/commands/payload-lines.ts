import { MemError, parsePayload, type Payload } from '@mem/core';

/**
 * Parses JSONL payload lines (blank lines ignored) and validates every one before anything
 * is written: the first bad line throws, naming its file, line number, field and expected shape.
 */
export function parsePayloadLines(text: string, file: string): Payload[] {
  const payloads: Payload[] = [];
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const raw = lines[index]!.replace(/\r$/, '');
    if (raw.trim() === '') continue;
    const line = index + 1;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      throw new MemError('INVALID_EVENT', `${file}:line ${line}: not valid JSON (${(error as Error).message}); expected one JSON object per line`, { file, line });
    }
    payloads.push(parsePayload(value, { file, line }));
  }
  if (payloads.length === 0) {
    throw new MemError('INVALID_INPUT', `${file}: no events to append (expected JSONL payload lines)`, { file });
  }
  return payloads;
}
