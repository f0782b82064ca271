import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { ProjectionOutput } from './projector.js';

/** One file where the live projection and a fresh rebuild disagree. */
export interface ParityDifference {
  projector: string;
  path: string;
  problem: 'missing' | 'unexpected' | 'differs';
  message: string;
}

/** Compares two output sets file by file (sizes first, then streamed bytes). */
export async function compareOutputs(
  projector: string,
  live: readonly ProjectionOutput[],
  rebuilt: readonly ProjectionOutput[],
): Promise<ParityDifference[]> {
  const differences: ParityDifference[] = [];
  const liveByPath = new Map(live.map((o) => [o.path, o]));
  const rebuiltByPath = new Map(rebuilt.map((o) => [o.path, o]));
  const paths = [...new Set([...liveByPath.keys(), ...rebuiltByPath.keys()])].sort();
  for (const path of paths) {
    const a = liveByPath.get(path);
    const b = rebuiltByPath.get(path);
    if (!a) {
      differences.push({
        projector,
        path,
        problem: 'missing',
        message: `${path} is missing: a rebuild from the log writes it`,
      });
    } else if (!b) {
      differences.push({
        projector,
        path,
        problem: 'unexpected',
        message: `${path} exists but a rebuild from the log does not write it`,
      });
    } else if (!(await sameBytes(a.absolutePath, b.absolutePath))) {
      differences.push({
        projector,
        path,
        problem: 'differs',
        message: `${path} differs from a rebuild from the log (behind the log, or edited by hand)`,
      });
    }
  }
  return differences;
}

async function sameBytes(a: string, b: string): Promise<boolean> {
  const [sa, sb] = await Promise.all([stat(a), stat(b)]);
  if (sa.size !== sb.size) return false;
  const ra = createReadStream(a, { highWaterMark: 1 << 20 })[Symbol.asyncIterator]();
  const rb = createReadStream(b, { highWaterMark: 1 << 20 })[Symbol.asyncIterator]();
  let bufA: Buffer = Buffer.alloc(0);
  let bufB: Buffer = Buffer.alloc(0);
  let doneA = false;
  let doneB = false;
  try {
    for (;;) {
      if (bufA.length === 0 && !doneA) {
        const next = await ra.next();
        if (next.done) doneA = true;
        else bufA = next.value as Buffer;
      }
      if (bufB.length === 0 && !doneB) {
        const next = await rb.next();
        if (next.done) doneB = true;
        else bufB = next.value as Buffer;
      }
      if (bufA.length === 0 || bufB.length === 0)
        return bufA.length === bufB.length && doneA && doneB;
      const n = Math.min(bufA.length, bufB.length);
      if (!bufA.subarray(0, n).equals(bufB.subarray(0, n))) return false;
      bufA = bufA.subarray(n);
      bufB = bufB.subarray(n);
    }
  } finally {
    await ra.return?.();
    await rb.return?.();
  }
}
