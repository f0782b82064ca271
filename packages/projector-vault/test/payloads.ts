import { contentSha256, sha256Hex, type Payload, uniformLines } from '@mem/core';

/* Small builders of valid extraction payloads (content shas computed), for tests. */

export function l1Run(runId: string, queryId: string): Payload {
  return {
    type: 'run',
    run_id: runId,
    level: 'L1',
    query_id: queryId,
    input_level: 'chunk',
    model: 'test',
    chunk_tokens: 5000,
    memory_budget: 1024,
    exit_gate: false,
  };
}

export function l2Run(runId: string): Payload {
  return {
    type: 'run',
    run_id: runId,
    level: 'L2',
    query_id: null,
    input_level: 'L1',
    model: 'test',
    chunk_tokens: 5000,
    memory_budget: 1024,
    exit_gate: true,
  };
}

export function chunk(
  runId: string,
  t: number,
  source: string,
  level: 'L0' | 'L1' = 'L0',
  sha = sha256Hex(`${runId}/${t}`),
): Payload {
  return {
    type: 'chunk',
    run_id: runId,
    level,
    t,
    source,
    span: level === 'L0' ? [0, 1] : null,
    sha256: sha,
  };
}

export function gate(
  runId: string,
  t: number,
  update: boolean,
  level: 'L1' | 'L2' = 'L1',
): Payload {
  return { type: 'gate', run_id: runId, level, t, update, exit: false, think: '', latency_ms: 0 };
}

export function evidence(runId: string, t: number, source: string, text: string): Payload {
  return {
    type: 'evidence',
    run_id: runId,
    level: 'L0',
    t,
    source,
    text,
    sha256: contentSha256(text),
  };
}

export function memory(
  runId: string,
  t: number,
  text: string,
  parents: readonly string[],
  level: 'L1' | 'L2' = 'L1',
): Payload {
  return {
    type: 'memory',
    run_id: runId,
    level,
    t,
    text,
    tokens: 1,
    parents: [...parents],
    sha256: contentSha256(text),
    lines: uniformLines(text, parents),
  };
}

/** A memory whose lines rest on their own parents (as the loop records them): `[text, parents]` per line. */
export function memoryOfLines(
  runId: string,
  t: number,
  lines: ReadonlyArray<readonly [string, readonly string[]]>,
  level: 'L1' | 'L2' = 'L1',
): Payload {
  const text = lines.map(([line]) => `- ${line}`).join('\n');
  const parents = [...new Set(lines.flatMap(([, from]) => from))];
  return {
    type: 'memory',
    run_id: runId,
    level,
    t,
    text,
    tokens: 1,
    parents,
    sha256: contentSha256(text),
    lines: lines.map(([line, from]) => ({ sha256: contentSha256(line), parents: [...from] })),
  };
}

export function runEnd(
  runId: string,
  seen: number,
  used: number,
  finalSha: string | null,
  level: 'L1' | 'L2' = 'L1',
): Payload {
  return {
    type: 'run_end',
    run_id: runId,
    level,
    chunks_seen: seen,
    chunks_used: used,
    final_memory_sha: finalSha,
  };
}

export function tombstone(target: string, reason: string): Payload {
  return { type: 'tombstone', target, reason };
}

export function reference(text: string): Payload {
  return {
    type: 'reference',
    level: 'R',
    source: 'doc:runbook',
    heading_path: ['Ops'],
    text,
    sha256: contentSha256(text),
  };
}

export const sha = contentSha256;
