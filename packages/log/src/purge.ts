import { closeSync, constants, readFileSync, renameSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import {
  MemError,
  assertProjectName,
  contentSha256,
  ioError,
  purgeMarker,
  sha256Hex,
  type LogEvent,
} from '@mem/core';
import type { AppendContext } from './append.js';
import { chainBatch, validateBatch, type ChainLink } from './batch.js';
import { createPrivate, fsyncDirectory, fsyncFile, writeFully } from './durable-fs.js';
import { planPurge, type SegmentLines } from './purge-plan.js';
import { PURGE_MANIFEST, STAGED_SUFFIX, lockStagedFirst, settlePurge } from './purge-settle.js';
import { listSegmentsSync } from './segment-list.js';
import { FIRST_SEGMENT } from './segment-name.js';
import { withSegmentLock } from './segment-lock.js';
import { verifyLog } from './verify.js';

/** The points of a purge a crash drill stops at, in order. */
export type PurgeStep = 'staged' | 'committed' | 'renamed' | 'done';

export interface PurgeInput {
  /** The exact text to purge (matched in any letter case). */
  text: string;
  reason: string;
  /** Called after each step (a crash drill kills its own process there). */
  onStep?: (step: PurgeStep) => void;
}

/** What a purge rewrote, and the `purged` event that records it. */
export interface PurgeResult {
  project: string;
  text_sha256: string;
  lines: { seq: number; old: string; new: string }[];
  /** The segments rewritten (the newest always: it takes the `purged` event). */
  segments: string[];
  event: LogEvent;
}

/**
 * Replaces every occurrence of `input.text` in a project's log by its marker, under the
 * project's lock, and appends the `purged` event naming each rewritten line; crash-safe (see
 * purge-settle.ts). Refuses, writing nothing: a chain that is already broken (CHAIN_BROKEN), a
 * torn tail (CONFLICT: append or verify first), a text found nowhere (NOT_FOUND).
 */
export async function purgeLog(
  context: AppendContext,
  projectName: string,
  input: PurgeInput,
  writer: unknown,
): Promise<PurgeResult> {
  const project = assertProjectName(projectName);
  const projectDir = join(context.dir, project);
  const textSha = contentSha256(input.text);
  if (listSegmentsSync(projectDir).length === 0)
    throw new MemError('NOT_FOUND', `no log for project ${project}`, { field: 'project', project });
  return withSegmentLock(join(projectDir, FIRST_SEGMENT), async () => {
    settlePurge(projectDir);
    context.tails.delete(project);
    context.heads.delete(project);
    const verified = await verifyLog(context.dir, project);
    if (!verified.ok)
      throw new MemError(
        'CHAIN_BROKEN',
        `cannot purge ${project}: its chain is broken (${verified.break!.message}); nothing was changed`,
        { ...verified.break },
      );
    if (verified.torn_tail)
      throw new MemError(
        'CONFLICT',
        `cannot purge ${project}: its newest segment ends in a torn line; append or run \`mem verify\` first`,
        { project, ...verified.torn_tail },
      );
    const segments = readSegments(projectDir);
    const rewritten = planPurge(project, segments, input.text, purgeMarker(textSha));
    if (rewritten.length === 0)
      throw new MemError('NOT_FOUND', `the text to purge occurs nowhere in the log of ${project}`, {
        field: 'ref',
        project,
      });
    const lines = rewritten.map(({ seq, old, new: next }) => ({ seq, old, new: next }));
    const batch = validateBatch(
      [{ type: 'purged', text_sha256: textSha, reason: input.reason, lines }],
      writer,
    );
    for (const line of rewritten)
      segments.find((s) => s.segment === line.segment)!.lines[line.line - 1] = line.bytes;
    const newest = segments.at(-1)!;
    const head: ChainLink = { seq: verified.head.seq, hash: sha256Hex(newest.lines.at(-1)!) };
    const chained = chainBatch(
      project,
      head,
      [{ payload: batch.payloads[0]!, writer: batch.writer }],
      context.now().toISOString(),
    );
    const changed = [...new Set([...rewritten.map((line) => line.segment), newest.segment])].sort();
    await commitSegments(
      projectDir,
      segments.filter((s) => changed.includes(s.segment)),
      chained.bytes,
      newest.segment,
      input.onStep,
    );
    return { project, text_sha256: textSha, lines, segments: changed, event: chained.events[0]! };
  });
}

function readSegments(projectDir: string): SegmentLines[] {
  return listSegmentsSync(projectDir).map((segment) => {
    const file = join(projectDir, segment);
    const bytes = readFileSync(file);
    const lines: Buffer[] = [];
    for (let start = 0; start < bytes.length;) {
      const end = bytes.indexOf(0x0a, start);
      lines.push(bytes.subarray(start, end));
      start = end + 1;
    }
    return { segment, file, lines };
  });
}

/** Stage, commit (the manifest), rename, clean up: each step durable before the next. */
async function commitSegments(
  projectDir: string,
  segments: readonly SegmentLines[],
  appended: Uint8Array,
  newest: string,
  onStep?: (step: PurgeStep) => void,
): Promise<void> {
  const manifest = join(projectDir, PURGE_MANIFEST);
  for (const { segment, lines } of segments) {
    const content = Buffer.concat([
      ...lines.flatMap((line) => [line, Buffer.from('\n')]),
      ...(segment === newest ? [Buffer.from(appended)] : []),
    ]);
    await writeDurably(join(projectDir, segment + STAGED_SUFFIX), content);
    onStep?.('staged');
  }
  // Held from before the commit point until done: see lockStagedFirst (purge-settle.ts).
  const release = lockStagedFirst(
    projectDir,
    segments.map((s) => s.segment),
  );
  try {
    await writeDurably(
      `${manifest}.tmp`,
      Buffer.from(`${JSON.stringify({ segments: segments.map((s) => s.segment) })}\n`),
    );
    try {
      renameSync(`${manifest}.tmp`, manifest);
      fsyncDirectory(projectDir);
    } catch (error) {
      throw ioError('commit the purge in', projectDir, error);
    }
    onStep?.('committed');
    for (const { segment } of segments) {
      renameSync(join(projectDir, segment + STAGED_SUFFIX), join(projectDir, segment));
      onStep?.('renamed');
    }
    fsyncDirectory(projectDir);
    unlinkSync(manifest);
    fsyncDirectory(projectDir);
    onStep?.('done');
  } finally {
    release();
  }
}

async function writeDurably(path: string, content: Buffer): Promise<void> {
  const fd = createPrivate(path, constants.O_WRONLY | constants.O_TRUNC);
  try {
    writeFully(fd, content);
    await fsyncFile(fd);
  } catch (error) {
    throw ioError('write', path, error);
  } finally {
    closeSync(fd);
  }
}
