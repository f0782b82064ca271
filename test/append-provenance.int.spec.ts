import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contentSha256, uniformLines } from '@mem/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memInProcess } from './support/mem-cli.js';

/*
 * `mem log append` must not accept a memory that can never verify (issue 9, item 8): its
 * parents are checked against the log's nodes and the batch itself before anything is written.
 * The CLI in process, real files: the cases are about what append checks and writes (cli.int.spec.ts
 * runs append from stdin as the built bin).
 */
const repo = join(import.meta.dirname, '..');
const sample = join(repo, 'test', 'fixtures', 'extraction-runs.jsonl');
/** The sample's first L0 evidence, already in the log. */
const known = '56f6bc4f22a9c4c448b653ae11ad93d6a55dee7df24ba843cc1ea76e26155c07';
const unknown = 'f'.repeat(64);
const run = {
  type: 'run',
  run_id: 'run-prov-2',
  level: 'L1',
  query_id: 'infra-root-causes',
  input_level: 'chunk',
  model: 'heuristic',
  chunk_tokens: 5000,
  memory_budget: 1024,
  exit_gate: false,
};
let root: string;

const mem = (args: string[], input?: string) => memInProcess(['--root', root, ...args], { input });

function memory(text: string, parents: string[]) {
  return {
    type: 'memory',
    run_id: 'run-prov-2',
    level: 'L1',
    t: 1,
    text,
    tokens: 5,
    parents,
    sha256: contentSha256(text),
    lines: uniformLines(text, parents),
  };
}

function evidence(text: string) {
  return {
    type: 'evidence',
    run_id: 'run-prov-2',
    level: 'L0',
    t: 1,
    source: 'claude:prov',
    text,
    sha256: contentSha256(text),
  };
}

const segment = () => join(root, 'log', 'demo', '000001.jsonl');

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'mem-prov-'));
  expect((await mem(['log', 'append', '--project', 'demo', '--file', sample])).code).toBe(0);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('mem log append checks provenance first', () => {
  it('refuses a memory whose parent does not resolve, naming the field and the input line, and appends nothing', async () => {
    const before = readFileSync(segment());
    // Line 2 is blank: the line named is the input's, not the payload's position.
    const input = `${JSON.stringify(run)}\n\n${JSON.stringify(memory('- the body limit is set on the ingress.', [known, unknown]))}\n`;
    const result = await mem(['log', 'append', '--project', 'demo', '--json'], input);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stderr).error).toMatchObject({
      code: 'PROVENANCE_FAILED',
      details: { field: 'parents[1]', line: 3, problem: 'parent_unresolved' },
    });
    expect(readFileSync(segment()).equals(before)).toBe(true);
  });

  it('refuses an L1 memory that rests on an L1 memory, not on evidence', async () => {
    const before = readFileSync(segment());
    const input = `${JSON.stringify(run)}\n${JSON.stringify(memory('- a memory on a memory.', ['9973662d51379cd9e7883bee282b079670398f795abd51a44411326caede2421']))}\n`;
    const result = await mem(['log', 'append', '--project', 'demo', '--json'], input);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stderr).error).toMatchObject({
      code: 'PROVENANCE_FAILED',
      details: { field: 'parents[0]', line: 2, problem: 'parent_wrong_level' },
    });
    expect(readFileSync(segment()).equals(before)).toBe(true);
  });

  it('accepts parents written earlier in the same batch, and verify passes after it', async () => {
    const text = 'The ingress sets proxy-body-size: 0 since the 413 incident.';
    const input = [
      run,
      evidence(text),
      memory('- the ingress body limit is off.', [contentSha256(text), known]),
    ]
      .map((p) => JSON.stringify(p))
      .join('\n');
    const result = await mem(['log', 'append', '--project', 'demo', '--json'], input);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ appended: 3, first_seq: 22, last_seq: 24 });
    expect((await mem(['verify'])).code).toBe(0);
  });
});
