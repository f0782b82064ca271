import { readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chainEvents } from '../../../test/support/events.js';
import { tempLogDir, tombstone, tombstones } from '../test-fixtures/temp-log.js';
import { EventLog } from './event-log.js';

const writer = { kind: 'cli' };
let temp: ReturnType<typeof tempLogDir>;
let log: EventLog;
let file: string;

beforeEach(async () => {
  temp = tempLogDir();
  log = new EventLog({ dir: temp.dir });
  await log.append('demo', tombstones(8), writer);
  file = join(temp.dir, 'demo', '000001.jsonl');
});
afterEach(() => temp.cleanup());

/** Rewrites the segment's lines (1-based numbering in the callbacks' terms: lines[0] is line 1). */
function tamper(edit: (lines: string[]) => string[]): void {
  const lines = readFileSync(file, 'utf8').split('\n').slice(0, -1);
  writeFileSync(file, `${edit(lines).join('\n')}\n`);
}

async function readError(): Promise<{ code: string; details: { segment: string; line: number } }> {
  try {
    for await (const _ of log.read('demo')) void _;
  } catch (error) {
    return error as { code: string; details: { segment: string; line: number } };
  }
  throw new Error('expected read to throw');
}

describe('verify', () => {
  it('passes an untouched log and reports its head', async () => {
    const result = await log.verify('demo');
    expect(result).toMatchObject({
      project: 'demo',
      ok: true,
      events: 8,
      segments: 1,
      head: await log.head('demo'),
    });
  });

  it('an edited line breaks the chain at the line after it, blaming the edited one', async () => {
    tamper((lines) =>
      lines.map((line, n) => (n === 3 ? line.replace('"reason":"t3"', '"reason":"edited"') : line)),
    );
    const result = await log.verify('demo');
    expect(result.ok).toBe(false);
    expect(result.break).toMatchObject({
      project: 'demo',
      segment: '000001.jsonl',
      line: 5,
      code: 'CHAIN_BROKEN',
    });
    expect(result.break!.message).toContain('000001.jsonl line 4');
    expect(result.events).toBe(4);
    expect((await readError()).details).toMatchObject({ segment: '000001.jsonl', line: 5 });
  });

  it('a deleted line is reported where the gap is', async () => {
    tamper((lines) => lines.filter((_, n) => n !== 2));
    const result = await log.verify('demo');
    expect(result.break).toMatchObject({ segment: '000001.jsonl', line: 3, code: 'CHAIN_BROKEN' });
    expect(result.break!.message).toMatch(
      /seq 4 where seq 3 was expected after 000001\.jsonl line 2/,
    );
  });

  it('an inserted line is reported at the insertion', async () => {
    const forged = chainEvents('demo', [tombstone('forged')], { startSeq: 3 })[0]!.line;
    tamper((lines) => [...lines.slice(0, 5), forged, ...lines.slice(5)]);
    const result = await log.verify('demo');
    expect(result.break).toMatchObject({ segment: '000001.jsonl', line: 6, code: 'CHAIN_BROKEN' });
    expect(result.break!.message).toContain('000001.jsonl line 5');
  });

  it('a correctly numbered forgery still breaks at the next line', async () => {
    tamper((lines) => {
      const forged = lines[5]!.replace('"reason":"t5"', '"reason":"forged"');
      return [...lines.slice(0, 5), forged, ...lines.slice(6)];
    });
    expect((await log.verify('demo')).break).toMatchObject({ line: 7, code: 'CHAIN_BROKEN' });
  });

  it('swapped lines are reported at the first of them', async () => {
    tamper((lines) => [...lines.slice(0, 2), lines[3]!, lines[2]!, ...lines.slice(4)]);
    const result = await log.verify('demo');
    expect(result.break).toMatchObject({ segment: '000001.jsonl', line: 3, code: 'CHAIN_BROKEN' });
    expect(result.break!.message).toContain('reordered');
  });

  it('a line that is not an event, or not of this project, is reported with its own code', async () => {
    tamper((lines) => lines.map((line, n) => (n === 6 ? '{"not json' : line)));
    expect((await log.verify('demo')).break).toMatchObject({ line: 7, code: 'LOG_CORRUPT' });
    await log.append('other', tombstones(1), writer);
    const foreign = readFileSync(join(temp.dir, 'other', '000001.jsonl'), 'utf8').trimEnd();
    tamper((lines) => [foreign, ...lines.slice(1)]);
    expect((await log.verify('demo')).break).toMatchObject({ line: 1, code: 'LOG_CORRUPT' });
    tamper((lines) =>
      lines.map((line, n) =>
        n === 0 ? line.replace('"type":"tombstone"', '"type":"mystery"') : line,
      ),
    );
    expect((await log.verify('demo')).break).toMatchObject({ line: 1, code: 'UNKNOWN_EVENT_TYPE' });
  });

  it('an edited first line no longer chains from genesis', async () => {
    tamper((lines) =>
      lines.map((line, n) =>
        n === 0 ? line.replace(/"prev":"[0-9a-f]{64}"/, `"prev":"${'0'.repeat(64)}"`) : line,
      ),
    );
    const result = await log.verify('demo');
    expect(result.break).toMatchObject({ line: 1, code: 'CHAIN_BROKEN' });
    expect(result.break!.message).toContain('genesis');
  });

  it('reports a gap in segment numbering', async () => {
    const rotating = new EventLog({ dir: temp.dir, segmentBytes: 600 });
    for (let n = 0; n < 6; n += 1) await rotating.append('demo', [tombstone(`r${n}`)], writer);
    const last = readdirSync(join(temp.dir, 'demo')).sort().at(-1)!;
    const index = Number(last.slice(0, 6));
    const renamed = `${String(index + 2).padStart(6, '0')}.jsonl`;
    renameSync(join(temp.dir, 'demo', last), join(temp.dir, 'demo', renamed));
    const result = await log.verify('demo');
    expect(result.break).toMatchObject({ segment: renamed, line: 1, code: 'CHAIN_BROKEN' });
    expect(result.break!.message).toContain(`${String(index).padStart(6, '0')}.jsonl is missing`);
  });

  it('reports a break in a later segment by that segment and its own line number', async () => {
    const rotating = new EventLog({ dir: temp.dir, segmentBytes: 1500 });
    for (let n = 0; n < 10; n += 1) await rotating.append('demo', [tombstone(`r${n}`)], writer);
    const second = join(temp.dir, 'demo', '000002.jsonl');
    const lines = readFileSync(second, 'utf8').split('\n');
    writeFileSync(second, [lines[0], lines[2], lines[1], ...lines.slice(3)].join('\n'));
    expect((await log.verify('demo')).break).toMatchObject({
      segment: '000002.jsonl',
      line: 2,
      code: 'CHAIN_BROKEN',
    });
  });
});
