import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { contentSha256, genesisHash, sha256Hex, type Payload, type Writer } from '@mem/core';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectLogs } from '../../../test/support/arbitraries.js';
import { chainEvents } from '../../../test/support/events.js';
import { steppingClock, tempLogDir } from '../test-fixtures/temp-log.js';
import { EventLog } from './event-log.js';

/*
 * The log's bytes are its identity: every hash of the chain, every rebuild and every copy of
 * a log compares them. A faster append path must write byte for byte what the log wrote before.
 * Two guards: the sha256 of a log written from fixed payloads (every fixture of test/fixtures,
 * strings that need escaping, several writers, a group commit) against the digest the log's
 * earlier serialisation made (stop 28, before the line was assembled from parts), and random
 * catalogue logs against test/support's chainEvents, which builds each line the slow way
 * (zod's parseEvent, then serializeEvent).
 */

let temp: ReturnType<typeof tempLogDir>;
beforeEach(() => (temp = tempLogDir()));
afterEach(() => temp.cleanup());

const fixtures = ['administration.jsonl', 'extraction-runs.jsonl', 'ingest-jobs.jsonl'].flatMap(
  (name) =>
    readFileSync(join(import.meta.dirname, '../../../test/fixtures', name), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Payload),
);

const text = 'Ünïcode ✓, "quotes", a \\ backslash, a\nnewline, a \u0007 bell and an emoji 🦊';
const tricky: Payload[] = [
  { type: 'tombstone', target: 'a'.repeat(64), reason: text },
  {
    type: 'reference',
    level: 'R',
    source: 'docs:readme',
    heading_path: ['Intro', 'Ünïcode ✓', '</script>'],
    text,
    sha256: contentSha256(text),
  },
  // Keys out of catalogue order: zod puts them in order, the line never depends on the caller's.
  { reason: 'keys the other way round', target: 'b'.repeat(64), type: 'tombstone' },
];

describe('the bytes the log writes', () => {
  it('are the bytes the earlier serialisation wrote for the same input', async () => {
    const log = new EventLog({ dir: temp.dir, now: steppingClock() });
    await log.append('golden', fixtures.slice(0, 11), { kind: 'cli', principal: 'alice' });
    await log.append('golden', tricky, {
      kind: 'mcp',
      principal: 'bob',
      token: '0123456789abcdef',
    });
    // Three writers at once: one group commit, each batch with its own writer and ts.
    await Promise.all([
      log.append('golden', fixtures.slice(11, 20), { kind: 'cli' }),
      log.append('golden', fixtures.slice(20, 30), { kind: 'http', principal: 'carol' }),
      log.append('golden', fixtures.slice(30), { kind: 'job' }),
    ]);
    const bytes = readFileSync(join(temp.dir, 'golden', '000001.jsonl'));
    expect(bytes.toString('utf8').split('\n')).toHaveLength(fixtures.length + tricky.length + 1);
    expect(sha256Hex(bytes)).toBe(GOLDEN);
  });

  it('are the lines chainEvents builds through parseEvent and serializeEvent', async () => {
    const ts = '2026-08-17T00:00:00.000Z';
    const writer = { kind: 'cli', principal: 'alice' };
    await fc.assert(
      fc.asyncProperty(projectLogs(2), async (logs) => {
        const root = tempLogDir();
        try {
          const log = new EventLog({ dir: root.dir, now: () => new Date(ts) });
          for (const [project, payloads] of Object.entries(logs)) {
            await log.append(project, payloads, writer);
            const written = readFileSync(join(root.dir, project, '000001.jsonl'), 'utf8');
            expect(written).toBe(slowLines(project, payloads, writer, ts));
          }
        } finally {
          root.cleanup();
        }
      }),
      { numRuns: 25 },
    );
  });
});

/** One batch's lines the slow way: chainEvents one event at a time, all with the batch's ts. */
function slowLines(project: string, payloads: readonly Payload[], writer: Writer, ts: string) {
  let head = { seq: 1, prev: genesisHash(project) };
  return payloads
    .map((payload) => {
      const [chained] = chainEvents(project, [payload], {
        startSeq: head.seq,
        prev: head.prev,
        writer,
        startTs: ts,
      });
      head = { seq: head.seq + 1, prev: chained!.hash };
      return `${chained!.line}\n`;
    })
    .join('');
}

/** sha256 of the golden log as the log wrote it before its lines were assembled from parts. */
const GOLDEN = '88b46bfc55e10bec68177cd568b8c72bbc1a21ad10b1596569815f8d826cf5ee';
