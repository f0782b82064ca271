import fc from 'fast-check';
import { RECORD_ROLES, type RecordRole, type SourceRecord } from '../record.js';

/** A record with plain defaults, for tests. */
export function record(
  role: RecordRole,
  text: string,
  source = 'claude:s1',
  line?: number,
): SourceRecord {
  return {
    role,
    text,
    timestamp: '2026-01-01T00:00:00.000Z',
    provenance: { source, ...(line === undefined ? {} : { line }) },
    cwd: null,
  };
}

/** An async stream of the given records, as a batch source would yield them. */
export async function* streamOf(records: readonly SourceRecord[]): AsyncGenerator<SourceRecord> {
  for (const r of records) yield r;
}

const WORDS = [
  'kong',
  'body',
  'fsync',
  'retry',
  'timeout',
  'x',
  "don't",
  '42',
  '{"a":1}',
  'naïve',
  '中文',
  '😀',
  '  indented',
  '\t',
  '<|im_start|>',
];

const line = fc.array(fc.constantFrom(...WORDS), { maxLength: 12 }).map((w) => w.join(' '));
const longLine = fc
  .array(fc.constantFrom(...WORDS), { minLength: 60, maxLength: 400 })
  .map((w) => w.join(''));

/** Record texts: mostly short, sometimes many lines, sometimes one very long line, sometimes empty. */
export const recordText = fc.oneof(
  { weight: 6, arbitrary: fc.array(line, { maxLength: 6 }).map((ls) => ls.join('\n')) },
  {
    weight: 2,
    arbitrary: fc.array(line, { minLength: 20, maxLength: 120 }).map((ls) => ls.join('\n')),
  },
  { weight: 1, arbitrary: longLine },
  { weight: 1, arbitrary: fc.constantFrom('', '\n', '\n\n', ' ', 'trailing\n') },
);

/** Streams of records from one or two sources, interleaved. */
export const recordStream = fc
  .array(
    fc.record({
      role: fc.constantFrom<RecordRole>(...RECORD_ROLES),
      text: recordText,
      source: fc.constantFrom('claude:a', 'claude:a', 'claude:a', 'pi:b'),
    }),
    { maxLength: 40 },
  )
  .map((rs) => rs.map((r, i) => record(r.role, r.text, r.source, i + 1)));
