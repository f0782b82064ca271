import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemError, contentSha256, loadConfig, uniformLines } from '@mem/core';
import { Engine, termHashes } from '@mem/engine';
import { projectorSqlite } from '@mem/projector-sqlite';
import { projectorVault } from '@mem/projector-vault';
import { openRegistry, type Registry } from '@mem/registry';
import { appendedInProcess, memInProcess } from './support/mem-cli.js';

/*
 * Every writer of `superseded` checks and appends as `mem supersede` does (stop 34): vault
 * capture and review supersede plan from what they read, then check again under the project's
 * correction lock and append. A line already superseded, or a replacement text that was, is
 * CONFLICT naming the current replacement, whichever path writes second; a capture beside a
 * `mem supersede` of the same line leaves one supersession of it in the log.
 */
const repo = join(import.meta.dirname, '..');
const sample = join(repo, 'test', 'fixtures', 'extraction-runs.jsonl');
const KONG =
  'Requests over 10KB failed with 413: Kong buffered the body; fixed with proxy-body-size: 0.';
const PG =
  'CI flake: pg container raced its volume mount; fixed with a pg_isready readiness probe.';
const NOTE = join('vault', 'demo', 'infra-root-causes.md');
const EVIDENCE = '94af7d3928e418e68468ee1a6aa51d19d8fc97bc6a24b762923b4f52a4370391';
let root: string;
let registry: Registry;

/** A registry over `root` with the SQLite and vault projections, jobs off. */
const openDemo = () =>
  openRegistry({
    engine: new Engine({ root, projectors: [projectorSqlite, projectorVault] }),
    version: '0.0.0-test',
    config: loadConfig({}),
    runJobs: false,
  });

interface Logged {
  type: string;
  target?: string;
  after_sha256?: string;
}
const logged = (): Logged[] =>
  readdirSync(join(root, 'log', 'demo'))
    .sort()
    .flatMap((segment) => readFileSync(join(root, 'log', 'demo', segment), 'utf8').split('\n'))
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Logged);
const supersessionsOf = (sha: string) =>
  logged().filter((e) => e.type === 'superseded' && e.target === sha);

/** `mem supersede` of the Kong line, `delay` ms from now: the other side of each race below. */
const supersedeKongAfter = (delay: number) =>
  new Promise((resolve) => setTimeout(resolve, delay)).then(() =>
    registry.invoke('supersede', registry.local('local:test'), {
      project: 'demo',
      ref: contentSha256(KONG),
      by: 'Kong buffered request bodies over 10KB (413) until proxy-body-size: 0.',
      reason: 'race',
    }),
  );

/** The note with the line that reads `from` rewritten to read `to` (its block id kept). */
function rewrite(from: string, to: string): void {
  const path = join(root, NOTE);
  const before = readFileSync(path, 'utf8');
  const after = before.replace(`- ${from}`, `- ${to}`);
  expect(after).not.toBe(before);
  writeFileSync(path, after);
}

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'mem-correction-paths-'));
  await appendedInProcess(root, sample);
  registry = await openDemo();
}, 180_000);
afterEach(async () => {
  await registry.close();
  rmSync(root, { recursive: true, force: true });
});

describe('vault capture checks its supersessions as mem supersede does', () => {
  it('a rewrite to a text already superseded is CONFLICT naming its current replacement, nothing appended', async () => {
    const caller = registry.local('local:test');
    const replacement = 'CI flake: the pg container raced its volume mount; pg_isready fixed it.';
    await registry.invoke('supersede', caller, {
      project: 'demo',
      ref: contentSha256(PG),
      by: replacement,
      reason: 'reworded',
    });
    // The Kong line rewritten to the pg line's old words: superseding Kong by them would point
    // it at a text that left every read path, so neither would answer.
    rewrite(KONG, PG);
    const before = logged().length;
    const refused = await registry.invoke('vault_capture', caller, { project: 'demo' }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(MemError);
    expect((refused as MemError).code).toBe('CONFLICT');
    expect((refused as MemError).details).toMatchObject({
      field: 'by',
      target: contentSha256(KONG),
      by: contentSha256(PG),
      current: contentSha256(replacement),
    });
    expect(logged()).toHaveLength(before);
  });

  // Started a few ms apart: the capture's plan and the supersede's append overlap in some of
  // them (red before: two supersessions of the line at 5 and 10 ms, load 9).
  it.each([0, 5, 10, 20, 40])(
    'beside a mem supersede of the same line (started %i ms later), one supersession of it is written',
    async (delay) => {
      const caller = registry.local('local:test');
      rewrite(KONG, 'Requests over 10KB failed with 413 because Kong buffered the body.');
      const settled = await Promise.allSettled([
        registry.invoke('vault_capture', caller, { project: 'demo' }),
        supersedeKongAfter(delay),
      ]);
      expect(supersessionsOf(contentSha256(KONG))).toHaveLength(1);
      // Whichever lost was refused as a second supersession, never written beside the first.
      for (const s of settled)
        if (s.status === 'rejected') {
          expect(s.reason).toBeInstanceOf(MemError);
          expect((s.reason as MemError).code).toBe('CONFLICT');
        }
    },
  );
});

describe('vault capture refuses a note line holding a control or bidi character', () => {
  it.each([
    [
      'ESC',
      'Requests over 10KB failed with \u001b[31m413\u001b[0m because Kong buffered the body.',
      'U+001B',
    ],
    ['RLO', 'Requests over 10KB failed with 413 \u202ebecause Kong buffered the body.', 'U+202E'],
  ])(
    'a rewrite holding %s is INVALID_INPUT naming the note, line, field and code point; nothing appended',
    async (_name, text, point) => {
      const caller = registry.local('local:test');
      rewrite(KONG, text);
      const before = logged().length;
      for (const dry_run of [true, false]) {
        const refused = await registry
          .invoke('vault_capture', caller, { project: 'demo', dry_run })
          .then(
            () => null,
            (error: unknown) => error,
          );
        expect(refused).toBeInstanceOf(MemError);
        const error = refused as MemError;
        expect(error.code).toBe('INVALID_INPUT');
        expect(error.details).toMatchObject({
          project: 'demo',
          path: 'demo/infra-root-causes.md',
          field: 'text',
          code_point: point,
        });
        expect(error.details['line']).toBeGreaterThan(0);
        expect(error.message).toContain('demo/infra-root-causes.md line ');
      }
      expect(logged()).toHaveLength(before);
    },
  );
});

/** The Kong line said again (lowercase, no full stop) in a memory of a note of its own. */
const KONG_AGAIN = KONG.toLowerCase().replace(/\.$/u, '');

/** Appends KONG_AGAIN's memory (through `mem log append`, the registry reopened after). */
async function appendKongAgain(): Promise<void> {
  // A list, as the extractor writes: the memory's sha is not its one line's.
  const text = `- ${KONG_AGAIN}`;
  const payload = {
    type: 'memory',
    run_id: 'run-duplicate-kong',
    level: 'L1',
    t: 1,
    text,
    tokens: 20,
    parents: [EVIDENCE],
    sha256: contentSha256(text),
    lines: uniformLines(text, [EVIDENCE]),
  };
  const file = join(root, 'duplicate.jsonl');
  writeFileSync(file, `${JSON.stringify(payload)}\n`);
  await registry.close();
  await appendedInProcess(root, file);
  registry = await openDemo();
}

describe('review supersede checks its supersessions as mem supersede does', () => {
  /** KONG_AGAIN appended and scanned: a duplicate finding of it and the Kong line. */
  async function duplicateFinding(): Promise<{ id: string; subjects: string[] }> {
    await appendKongAgain();
    const caller = registry.local('local:test');
    await registry.invoke('review_scan', caller, { project: 'demo' });
    const { findings } = (await registry.invoke('review_list', caller, { project: 'demo' })) as {
      findings: { id: string; kind: string; subjects: string[] }[];
    };
    const found = findings.find(
      (f) => f.kind === 'duplicate' && f.subjects.includes(contentSha256(KONG)),
    );
    expect(found, JSON.stringify(findings)).toBeDefined();
    return found!;
  }

  // Started a few ms apart, as the capture race above.
  it.each([0, 5, 10, 20, 40])(
    'beside a mem supersede of the older line (started %i ms later), one supersession of it is written',
    async (delay) => {
      const finding = await duplicateFinding();
      const caller = registry.local('local:test');
      const settled = await Promise.allSettled([
        registry.invoke('review_supersede', caller, {
          project: 'demo',
          id: finding.id,
          reason: 'duplicate',
        }),
        supersedeKongAfter(delay),
      ]);
      expect(supersessionsOf(contentSha256(KONG))).toHaveLength(1);
      // The loser: CONFLICT when it read the line still live; a review that read the queue
      // after the supersede sees one live line left and is refused for that (INVALID_INPUT).
      for (const s of settled)
        if (s.status === 'rejected') {
          expect(s.reason).toBeInstanceOf(MemError);
          expect(['CONFLICT', 'INVALID_INPUT']).toContain((s.reason as MemError).code);
        }
    },
  );
});

describe("review supersede keeps a person's uncaptured edit", () => {
  // Red before: the supersession and the decision were appended and the note re-rendered over
  // the rewritten pg line (stop 35; vault-edit-guard.int.spec.ts holds the other writers).
  it('is CONFLICT uncaptured_edits naming the note it would re-render; nothing appended, the edit kept', async () => {
    await appendKongAgain();
    const caller = registry.local('local:test');
    await registry.invoke('review_scan', caller, { project: 'demo' });
    const { findings } = (await registry.invoke('review_list', caller, { project: 'demo' })) as {
      findings: { id: string; kind: string; subjects: string[] }[];
    };
    const finding = findings.find(
      (f) => f.kind === 'duplicate' && f.subjects.includes(contentSha256(KONG)),
    )!;
    const edited = 'CI flake: the pg container raced its volume mount (pg_isready fixed it).';
    rewrite(PG, edited);
    const before = logged().length;
    const refused = await registry
      .invoke('review_supersede', caller, { project: 'demo', id: finding.id, reason: 'dup' })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(refused).toBeInstanceOf(MemError);
    expect((refused as MemError).code).toBe('CONFLICT');
    expect((refused as MemError).details).toMatchObject({
      reason: 'uncaptured_edits',
      files: ['vault/demo/infra-root-causes.md'],
    });
    expect(logged()).toHaveLength(before);
    expect(readFileSync(join(root, NOTE), 'utf8')).toContain(edited);
  });
});

describe('mem log append checks its corrections as mem supersede does', () => {
  const superseded = (target: string, text: string, after = contentSha256(text)) =>
    JSON.stringify({
      type: 'superseded',
      target,
      target_kind: 'line',
      before_sha256: target,
      after_sha256: after,
      text,
      reason: 'via log append',
    });
  const forgotten = (target: string) =>
    JSON.stringify({
      type: 'forgotten',
      target,
      target_kind: 'line',
      before_sha256: target,
      refuses: [{ sha256: target, terms: termHashes(KONG) }],
      reason: 'via log append',
    });
  /** `mem log append` of `lines` into demo, in process, beside the open registry. */
  const logAppend = (lines: string[]) =>
    memInProcess(['--root', root, 'log', 'append', '--project', 'demo', '--json'], {
      input: `${lines.join('\n')}\n`,
    });
  /** Refused with `code` naming each of `named`, and the log as it was. */
  const refused = async (lines: string[], code: string, named: string[]) => {
    const before = logged().length;
    const run = await logAppend(lines);
    expect(run.code).not.toBe(0);
    const said = run.stdout + run.stderr;
    expect(said).toContain(code);
    for (const name of named) expect(said).toContain(name);
    expect(logged()).toHaveLength(before);
  };
  const kong = contentSha256(KONG);

  it('a file superseding one line twice is CONFLICT naming the first replacement, nothing appended', async () => {
    await refused(
      [superseded(kong, 'Kong buffered bodies A.'), superseded(kong, 'Kong buffered bodies B.')],
      'CONFLICT',
      [contentSha256('Kong buffered bodies A.')],
    );
    expect(supersessionsOf(kong)).toHaveLength(0);
  });

  it('superseding a line already superseded is CONFLICT naming its current replacement', async () => {
    const replacement = 'Kong buffered request bodies over 10KB until proxy-body-size: 0.';
    await registry.invoke('supersede', registry.local('local:test'), {
      project: 'demo',
      ref: kong,
      by: replacement,
      reason: 'reworded',
    });
    await refused([superseded(kong, 'Kong again.')], 'CONFLICT', [contentSha256(replacement)]);
    expect(supersessionsOf(kong)).toHaveLength(1);
  });

  it('a forgotten line, or a target that is no line, is refused (CONFLICT, NOT_FOUND)', async () => {
    await registry.invoke('forget', registry.local('local:test'), {
      project: 'demo',
      ref: kong,
      reason: 'wrong',
    });
    await refused([superseded(kong, 'Kong again.')], 'CONFLICT', [kong]);
    await refused([forgotten(kong)], 'CONFLICT', [kong]);
    const unknown = contentSha256('no such line');
    await refused([forgotten(unknown)], 'NOT_FOUND', [unknown]);
    await refused([superseded(unknown, 'Anything.')], 'NOT_FOUND', [unknown]);
  });

  it('an after_sha256 that is not the sha of its text is INVALID_INPUT naming the expected sha', async () => {
    const zeros = '0'.repeat(64);
    await refused([superseded(kong, 'Mismatched text', zeros)], 'INVALID_INPUT', [
      'after_sha256',
      contentSha256('Mismatched text'),
    ]);
  });

  it('a batch without corrections is appended as before, and a valid supersession is written once', async () => {
    const run = await logAppend([superseded(kong, 'Kong buffered bodies A.')]);
    expect(run.code).toBe(0);
    expect(supersessionsOf(kong)).toEqual([
      expect.objectContaining({ after_sha256: contentSha256('Kong buffered bodies A.') }),
    ]);
  });

  it('beside a mem supersede of the same line, one supersession of it is written', async () => {
    const settled = await Promise.allSettled([
      logAppend([superseded(kong, 'Kong buffered bodies A.')]),
      registry.invoke('supersede', registry.local('local:test'), {
        project: 'demo',
        ref: kong,
        by: 'Kong buffered bodies B.',
        reason: 'race',
      }),
    ]);
    expect(supersessionsOf(kong)).toHaveLength(1);
    const [cli, op] = settled;
    const cliWon = cli.status === 'fulfilled' && cli.value.code === 0;
    const opWon = op.status === 'fulfilled';
    expect([cliWon, opWon].filter(Boolean)).toHaveLength(1);
  });
});

describe('a line a forget took out with its target is forgotten to every correction writer', () => {
  // `mem forget` of the Kong line refuses KONG_AGAIN with it (a rewording in another memory).
  // The correction checks recorded only the forget's target: red before, the copy was
  // superseded (mem supersede, log append) and forgotten again (mem forget) after it.
  const kong = contentSha256(KONG);
  const again = contentSha256(KONG_AGAIN);
  const forgetKong = async () => {
    await appendKongAgain();
    const out = (await registry.invoke('forget', registry.local('local:test'), {
      project: 'demo',
      ref: kong,
      reason: 'wrong',
    })) as { seq: number };
    const tombstone = logged().find((e) => e.type === 'forgotten') as Logged & {
      refuses: { sha256: string }[];
    };
    expect(tombstone.refuses.map((line) => line.sha256)).toContain(again);
    return out.seq;
  };
  /** `invoke` refused with CONFLICT naming the Kong tombstone and its seq; the log as it was. */
  const refusedByKong = async (seq: number, invoke: () => Promise<unknown>) => {
    const before = logged().length;
    const refused = await invoke().then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(MemError);
    expect((refused as MemError).code).toBe('CONFLICT');
    expect((refused as MemError).details).toMatchObject({ target: again, tombstone: kong });
    expect((refused as MemError).message).toContain(`tombstone ${kong}, seq ${seq}`);
    expect(logged()).toHaveLength(before);
  };

  it('mem supersede and mem forget of the copy are CONFLICT naming the tombstone, nothing appended', async () => {
    const seq = await forgetKong();
    const caller = registry.local('local:test');
    await refusedByKong(seq, () =>
      registry.invoke('supersede', caller, {
        project: 'demo',
        ref: again,
        by: 'Kong rejected large bodies until proxy-body-size: 0 was set.',
        reason: 'after its forget',
      }),
    );
    await refusedByKong(seq, () =>
      registry.invoke('forget', caller, { project: 'demo', ref: again, reason: 'again' }),
    );
    expect(supersessionsOf(again)).toHaveLength(0);
  });

  it('mem log append superseding the copy is CONFLICT naming the tombstone, nothing appended', async () => {
    const seq = await forgetKong();
    const text = 'Kong rejected large bodies until proxy-body-size: 0 was set.';
    const before = logged().length;
    const run = await memInProcess(
      ['--root', root, 'log', 'append', '--project', 'demo', '--json'],
      {
        input: `${JSON.stringify({
          type: 'superseded',
          target: again,
          target_kind: 'line',
          before_sha256: again,
          after_sha256: contentSha256(text),
          text,
          reason: 'via log append',
        })}\n`,
      },
    );
    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).toContain('CONFLICT');
    expect(run.stdout + run.stderr).toContain(`tombstone ${kong}, seq ${seq}`);
    expect(logged()).toHaveLength(before);
  });
});
