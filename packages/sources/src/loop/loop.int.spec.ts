import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sourceForPath } from '../for-path.js';
import { collect } from '../testing/fixtures.js';
import { loopArtifactSource } from './source.js';

const ARTIFACTS = fileURLToPath(new URL('./__fixtures__/artifacts', import.meta.url));

describe('loop artifacts adapter (hand-written fixtures; no real sample exists)', () => {
  it('reads every attempt in order, each line by its own shape, named loop:<task>/<attempt>', async () => {
    const source = loopArtifactSource(ARTIFACTS);
    const records = await collect(source);
    expect(
      records.map((r) => [
        r.provenance.source,
        r.provenance.entry?.split(':')[0],
        r.role,
        r.text.slice(0, 40),
      ]),
    ).toEqual([
      // T-101/1-coder.jsonl: Claude Code stream-json.
      ['loop:T-101/1', 'coder', 'assistant', 'I will run the failing test first.'],
      ['loop:T-101/1', 'coder', 'tool_call', 'Bash {"command":"cargo test -p mem-chunk'],
      ['loop:T-101/1', 'coder', 'tool_result', 'Bash error:\ntest chunk::flush ... FAILED'],
      ['loop:T-101/1', 'coder', 'assistant', 'Root cause: the file chunker never flush'],
      // T-101/1-reviewer.jsonl: OpenAI chat messages.
      ['loop:T-101/1', 'reviewer', 'system', 'You review patches. Answer APPROVE or RE'],
      ['loop:T-101/1', 'reviewer', 'user', 'Review the diff for T-101 attempt 1.'],
      ['loop:T-101/1', 'reviewer', 'assistant', 'REQUEST_CHANGES: the flush also fires on'],
      // T-101/2-coder.jsonl: pi entries, one line glued, the last one cut off.
      ['loop:T-101/2', 'coder', 'user', 'Address the review: flush on EOF only.'],
      ['loop:T-101/2', 'coder', 'assistant', 'Gating the flush on EOF.'],
      ['loop:T-101/2', 'coder', 'tool_call', 'edit {"path":"src/chunk.rs"}'],
      ['loop:T-101/2', 'coder', 'tool_result', 'edit result:\nEdited src/chunk.rs'],
      ['loop:T-101/2', 'coder', 'assistant', 'Done.'],
      // T-101/2-reviewer.jsonl: a chat-completion response.
      ['loop:T-101/2', 'reviewer', 'assistant', 'APPROVE: flush is gated on EOF and cover'],
      // T-102/attempt-1/coder.jsonl: OpenAI messages with tool calls.
      ['loop:T-102/1', 'coder', 'user', 'Add a dry-run flag to mem ingest.'],
      ['loop:T-102/1', 'coder', 'assistant', '[thinking] Need the CLI parser first.'],
      ['loop:T-102/1', 'coder', 'tool_call', 'read_file {"path":"src/cli.rs"}'],
      ['loop:T-102/1', 'coder', 'tool_result', 'read_file result:\nfn main() { /* clap */'],
      ['loop:T-102/1', 'coder', 'assistant', 'Added --dry-run; it prints the chunk pla'],
    ]);
    const stats = source.stats();
    expect(stats.files).toBe(5);
    expect(stats.skipped).toEqual({
      result: 1,
      'session-header': 1,
      'system:init': 1,
      'unknown:telemetry': 1,
    });
    expect(stats.glued).toEqual({ lines: 1, objects: 2 });
    expect(stats.invalidJson).toEqual({
      count: 1,
      samples: [{ file: `${ARTIFACTS}/T-101/2-reviewer.jsonl`, line: 3 }],
    });
    expect(stats.truncatedTails).toEqual({
      count: 1,
      samples: [{ file: `${ARTIFACTS}/T-101/2-coder.jsonl`, line: 5, bytes: 82 }],
    });
    expect(stats.secrets).toEqual({ openai_key: 1 });
    expect(records.some((r) => r.text.includes('sk-proj-7Hq2'))).toBe(false);
  });

  it('carries timestamps and cwd from whatever the line holds', async () => {
    const records = await collect(loopArtifactSource(ARTIFACTS));
    expect(records.find((r) => r.text.startsWith('APPROVE'))?.timestamp).toBe(
      '2026-03-01T11:03:20.000Z',
    );
    expect(records.find((r) => r.text.startsWith('Add a dry-run'))?.timestamp).toBe(
      '2026-03-01T13:00:00.000Z',
    );
    expect(records.find((r) => r.text.startsWith('Gating'))).toMatchObject({
      cwd: '/repo',
      provenance: { line: 3 },
    });
    expect(records.find((r) => r.text.startsWith('I will run'))?.provenance.entry).toBe(
      'coder:msg_A1',
    );
  });

  it('names a single file given alone by its folder (the task) and its name (attempt, agent)', async () => {
    const records = await collect(sourceForPath(`${ARTIFACTS}/T-101/1-reviewer.jsonl`, 'loop'));
    expect(new Set(records.map((r) => r.provenance.source))).toEqual(new Set(['loop:T-101/1']));
    expect(records.every((r) => r.provenance.entry === 'reviewer')).toBe(true);
  });
});
