import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contentSha256 } from '@mem/core';
import { memoryPayloads } from './api/support.js';
import { jsonlFile, logBytes } from './support/data-root.js';
import { memInProcess, memProcess } from './support/mem-cli.js';

/*
 * Issue 13 §5: pins on memory lines. `mem pin REF` writes a line_pinned event; in `mem query`
 * a pinned line leads its relevance band as a pinned item does, its ranking block says
 * `pinned`, and `mem unpin` takes it back. Pinning an unknown, forgotten or superseded line is
 * refused with a typed code, the log untouched; forgetting a pinned line takes it out of recall.
 */
let root: string;

// Equally relevant to the question (the same terms, as often, in lines of one length).
const OLDER = 'Rollout notes: drain staging hosts before database migrations';
const NEWER = 'Rollout notes: drain canary pods after budget alerts';
const QUESTION = 'rollout notes drain';
const memories = [
  memoryPayloads('run-older', `Seen: ${OLDER}`, OLDER, 'staging'),
  memoryPayloads('run-newer', `Seen: ${NEWER}`, NEWER, 'canary'),
];

// Keyword relevance alone: the hash embedder's vectors would tell two equal matches apart.
const env = { MEM_FUSION_WEIGHTS: 'keyword=1,vector_text=0,vector_symptom=0' };
const mem = (...args: string[]) => memInProcess(['--root', root, ...args], { env });
const json = (run: { stdout: string }) => JSON.parse(run.stdout) as Record<string, any>;

interface Hit {
  text: string;
  ranking: { order: { band: number; pinned: boolean } };
}

function asked(): Hit[] {
  const run = memProcess(['--root', root, 'query', QUESTION, '--project', 'demo', '--json'], {
    env,
  });
  expect(run.code, run.stderr).toBe(0);
  return (JSON.parse(run.stdout) as { results: Hit[] }).results;
}

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'mem-line-pin-'));
  const payloads = memories.flatMap((m) => m.payloads);
  const file = jsonlFile(root, payloads, 'payloads.jsonl');
  expect((await mem('log', 'append', '--project', 'demo', '--file', file)).code).toBe(0);
}, 60_000);
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('mem pin / mem unpin a memory line', () => {
  it('moves a pinned line ahead of an equally relevant newer one, says pinned, and unpins', async () => {
    const before = asked();
    expect(before.map((h) => h.text)).toEqual([NEWER, OLDER]);
    expect(before[0]!.ranking.order.band).toBe(before[1]!.ranking.order.band);

    const ref = contentSha256(OLDER).slice(0, 12);
    const pin = await mem(
      'pin',
      ref,
      '--project',
      'demo',
      '--reason',
      'staging goes first',
      '--json',
    );
    expect(pin.code, pin.stderr).toBe(0);
    expect(json(pin)).toMatchObject({ target: contentSha256(OLDER), level: 'L1', pinned: true });
    const event = logBytes(root, 'demo')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .at(-1);
    expect(event).toMatchObject({
      type: 'line_pinned',
      target: contentSha256(OLDER),
      level: 'L1',
      reason: 'staging goes first',
    });

    const pinned = asked();
    expect(pinned.map((h) => h.text)).toEqual([OLDER, NEWER]);
    expect(pinned.map((h) => h.ranking.order.pinned)).toEqual([true, false]);

    // Pinned again: nothing to write.
    const bytes = logBytes(root, 'demo');
    const again = await mem('pin', ref, '--project', 'demo', '--reason', 'again', '--json');
    expect(again.code).toBe(0);
    expect(json(again)['seq']).toBeNull();
    expect(logBytes(root, 'demo')).toBe(bytes);

    const unpin = await mem(
      'unpin',
      ref,
      '--project',
      'demo',
      '--reason',
      'order no longer matters',
    );
    expect(unpin.code, unpin.stderr).toBe(0);
    expect(asked().map((h) => h.text)).toEqual([NEWER, OLDER]);
  });

  it('refuses an unknown, a forgotten and a superseded line, the log unchanged; a forgotten pinned line stays out of recall', async () => {
    const pin = (ref: string) =>
      mem('pin', ref, '--project', 'demo', '--reason', 'pin it', '--json');
    const codeOf = (run: { stderr: string }) => JSON.parse(run.stderr).error.code as string;

    // Pinned first, then forgotten: the pin never brings the text back.
    const first = await pin(contentSha256(NEWER).slice(0, 12));
    expect(first.code, first.stderr).toBe(0);
    expect(
      (
        await mem(
          'forget',
          contentSha256(NEWER).slice(0, 12),
          '--project',
          'demo',
          '--reason',
          'wrong',
        )
      ).code,
    ).toBe(0);
    expect(asked().map((h) => h.text)).toEqual([OLDER]);
    expect(
      (
        await mem(
          'supersede',
          contentSha256(OLDER).slice(0, 12),
          '--by',
          'Rollout notes: every host drains at once',
          '--project',
          'demo',
          '--reason',
          'changed',
        )
      ).code,
    ).toBe(0);

    const before = logBytes(root, 'demo');
    const unknown = await pin('abcdef123456');
    expect([unknown.code, codeOf(unknown)]).toEqual([1, 'NOT_FOUND']);
    const forgotten = await pin(contentSha256(NEWER).slice(0, 12));
    expect([forgotten.code, codeOf(forgotten)]).toEqual([1, 'CONFLICT']);
    const superseded = await pin(contentSha256(OLDER).slice(0, 12));
    expect([superseded.code, codeOf(superseded)]).toEqual([1, 'CONFLICT']);
    const reasonless = await mem('pin', contentSha256(OLDER).slice(0, 12), '--project', 'demo');
    expect(reasonless.code).toBe(2);
    expect(logBytes(root, 'demo')).toBe(before);
  });
});
