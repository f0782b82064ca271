import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hasErrorCode } from '@mem/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chainEvents } from '../../../test/support/events.js';
import { tempLogDir, tombstone, tombstones } from '../test-fixtures/temp-log.js';
import { EventLog } from './event-log.js';

const writer = { kind: 'cli' };
let temp: ReturnType<typeof tempLogDir>;
beforeEach(() => (temp = tempLogDir()));
afterEach(() => temp.cleanup());

async function readError(
  log: EventLog,
  project: string,
): Promise<Error & { code: string; details: Record<string, unknown> }> {
  try {
    for await (const _ of log.read(project)) void _;
  } catch (error) {
    return error as Error & { code: string; details: Record<string, unknown> };
  }
  throw new Error('expected read to throw');
}

/** Writes a hand-made log: the lines chainEvents builds, with `edit` applied to the raw text. */
function handMadeLog(
  project: string,
  count: number,
  edit: (line: string, n: number) => string,
): string {
  const dir = join(temp.dir, project);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, '000001.jsonl');
  writeFileSync(
    file,
    chainEvents(project, tombstones(count))
      .map((e, n) => `${edit(e.line, n + 1)}\n`)
      .join(''),
  );
  return file;
}

describe('bad lines in a log file', () => {
  it('an unknown type is a hard error naming file and line', async () => {
    const file = handMadeLog('demo', 4, (line, n) =>
      n === 3 ? line.replace('"type":"tombstone"', '"type":"telepathy"') : line,
    );
    const error = await readError(new EventLog({ dir: temp.dir }), 'demo');
    expect(hasErrorCode(error, 'UNKNOWN_EVENT_TYPE')).toBe(true);
    expect(error.message).toContain(`${file}:line 3`);
    expect(error.details).toMatchObject({
      project: 'demo',
      segment: '000001.jsonl',
      file,
      line: 3,
    });
  });

  it('a line that is not JSON, or breaks a field, names file and line', async () => {
    handMadeLog('json', 3, (line, n) => (n === 2 ? line.slice(0, -3) : line));
    const notJson = await readError(new EventLog({ dir: temp.dir }), 'json');
    expect(notJson).toMatchObject({ code: 'LOG_CORRUPT', details: { line: 2 } });
    handMadeLog('field', 3, (line, n) =>
      n === 2 ? line.replace('"reason":"t1"', '"reason":""') : line,
    );
    const badField = await readError(new EventLog({ dir: temp.dir }), 'field');
    expect(badField).toMatchObject({
      code: 'INVALID_EVENT',
      details: { line: 2, field: 'reason' },
    });
  });

  it('the writer refuses to chain after an unreadable last line, and changes nothing', async () => {
    const log = new EventLog({ dir: temp.dir });
    await log.append('demo', tombstones(2), writer);
    const file = join(temp.dir, 'demo', '000001.jsonl');
    appendFileSync(file, '{"seq":3,"mangled":true}\n');
    const before = readFileSync(file);
    const error = await log.append('demo', [tombstone('x')], writer).catch((e: unknown) => e);
    expect(hasErrorCode(error, 'LOG_CORRUPT')).toBe(true);
    expect((error as { details: Record<string, unknown> }).details).toMatchObject({
      segment: '000001.jsonl',
      line: 3,
    });
    expect(readFileSync(file)).toEqual(before);
    await expect(log.head('demo')).rejects.toSatisfy((e) => hasErrorCode(e, 'LOG_CORRUPT'));
  });

  it('the writer refuses a last line that belongs to another project', async () => {
    const log = new EventLog({ dir: temp.dir });
    await log.append('demo', tombstones(1), writer);
    appendFileSync(
      join(temp.dir, 'demo', '000001.jsonl'),
      `${chainEvents('other', [tombstone('x')], { startSeq: 2 })[0]!.line}\n`,
    );
    await expect(log.append('demo', [tombstone('y')], writer)).rejects.toSatisfy((e) =>
      hasErrorCode(e, 'LOG_CORRUPT'),
    );
  });
});
