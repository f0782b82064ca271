import { join } from 'node:path';
import { assertProjectName, genesisHash, isMemError } from '@mem/core';
import { listSegments } from './segment-list.js';
import {
  CHAIN_BREAK_CODES,
  type ChainBreak,
  type LogHead,
  type TornTail,
  type VerifyResult,
} from './types.js';
import { walkLog } from './walk.js';

const BREAK_CODES: ReadonlySet<string> = new Set<ChainBreak['code']>(CHAIN_BREAK_CODES);

/**
 * Walks every line of every segment of `project` and reports the first break instead of
 * throwing. A trailing torn line at the very end is reported as `torn_tail`, not as a break.
 * I/O failures (permissions, a vanished directory) still throw: they say nothing about the chain.
 */
export async function verifyLog(dir: string, projectName: string): Promise<VerifyResult> {
  const project = assertProjectName(projectName);
  const segments = (await listSegments(join(dir, project))).length;
  let events = 0;
  let head: LogHead = { seq: 0, hash: genesisHash(project) };
  let tornTail: TornTail | undefined;
  try {
    for await (const { event, hash } of walkLog(dir, project, {
      onTornTail: (tail) => (tornTail = tail),
    })) {
      events += 1;
      head = { seq: event.seq, hash };
    }
  } catch (error) {
    const found = asBreak(project, error);
    if (!found) throw error;
    // A break found only when the walk ended (after a purged line): count up to it, not past it.
    const walked = (error as { details: { walked?: LogHead } }).details.walked;
    if (walked)
      return { project, ok: false, events: walked.seq, segments, head: walked, break: found };
    return { project, ok: false, events, segments, head, break: found };
  }
  return {
    project,
    ok: true,
    events,
    segments,
    head,
    ...(tornTail ? { torn_tail: tornTail } : {}),
  };
}

function asBreak(project: string, error: unknown): ChainBreak | null {
  if (!isMemError(error) || !BREAK_CODES.has(error.code)) return null;
  const { segment, line } = error.details;
  if (typeof segment !== 'string' || typeof line !== 'number') return null;
  return { project, segment, line, code: error.code as ChainBreak['code'], message: error.message };
}
