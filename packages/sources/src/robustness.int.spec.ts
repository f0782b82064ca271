import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hasErrorCode, isMemError } from '@mem/core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourceForPath } from './for-path.js';
import { transcriptFromText } from './memory.js';
import { TRANSCRIPT_KINDS, type TranscriptKind } from './source.js';
import { collect, jsonl, transcript } from './testing/fixtures.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mem-sources-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Lines every adapter understands, in its own shape. */
const GOOD_LINE: Record<TranscriptKind, (n: number) => unknown> = {
  claude: (n) => ({
    type: 'user',
    uuid: `11111111-2222-4333-8444-55555555555${n}`,
    sessionId: 's1',
    cwd: '/w',
    timestamp: '2026-01-01T00:00:00.000Z',
    message: { role: 'user', content: 'hello' },
  }),
  pi: () => ({
    type: 'message',
    timestamp: '2026-01-01T00:00:00.000Z',
    message: { role: 'user', content: 'hello' },
  }),
  loop: () => ({ role: 'user', content: 'hello' }),
  codex: () => ({
    type: 'response_item',
    timestamp: '2026-01-01T00:00:00.000Z',
    payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hello' }] },
  }),
};

describe.each(TRANSCRIPT_KINDS)('%s adapter survives bad input', (kind) => {
  it('a truncated last line, an unknown entry type, invalid JSON lines (with file and line), blank lines', async () => {
    const path = join(dir, `${kind}-bad.jsonl`);
    const text = `${jsonl(GOOD_LINE[kind](1), { type: 'from-the-future', x: 1 }, 'not json at all', '', '{"type":"user",', GOOD_LINE[kind](2))}{"type":"mess`;
    await writeFile(path, text);
    const source = sourceForPath(path, kind);
    const records = await collect(source);
    expect(records.map((r) => [r.role, r.text, r.provenance.line])).toEqual([
      ['user', 'hello', 1],
      ['user', 'hello', 6],
    ]);
    const stats = source.stats();
    expect(stats.skipped).toMatchObject({ 'blank-line': 1, 'unknown:from-the-future': 1 });
    expect(stats.invalidJson).toEqual({
      count: 2,
      samples: [
        { file: path, line: 3 },
        { file: path, line: 5 },
      ],
    });
    expect(stats.truncatedTails).toEqual({
      count: 1,
      samples: [{ file: path, line: 7, bytes: 13 }],
    });
    expect(stats.lines).toBe(6);
  });

  it('an empty file', async () => {
    const path = join(dir, `${kind}-empty.jsonl`);
    await writeFile(path, '');
    const source = sourceForPath(path, kind);
    expect(await collect(source)).toEqual([]);
    expect(source.stats()).toMatchObject({
      files: 1,
      lines: 0,
      bytes: 0,
      invalidJson: { count: 0 },
      truncatedTails: { count: 0 },
    });
  });

  it('never throws on arbitrary bytes (in memory)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 2000 }), async (bytes) => {
        const source = transcriptFromText(bytes, kind);
        await collect(source);
        const newlines = bytes.filter((b) => b === 0x0a).length;
        expect(source.stats().lines).toBe(newlines);
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on arbitrary JSON values, or on entries of the right type with arbitrary fields', async () => {
    const type = kind === 'pi' ? 'message' : 'assistant';
    const entry = fc.oneof(
      fc.jsonValue(),
      fc.dictionary(
        fc.constantFrom(
          'type',
          'role',
          'message',
          'content',
          'uuid',
          'cwd',
          'timestamp',
          'isMeta',
          'choices',
          'subtype',
        ),
        fc.jsonValue(),
      ),
      fc.record({
        type: fc.constant(type),
        message: fc.dictionary(fc.constantFrom('role', 'content', 'id', 'model'), fc.jsonValue()),
      }),
      fc.record({
        type: fc.constantFrom('user', 'assistant', 'message'),
        message: fc.record({
          role: fc.constantFrom(
            'user',
            'assistant',
            'toolResult',
            'bashExecution',
            'custom',
            'tool',
          ),
          content: fc.array(
            fc.dictionary(
              fc.constantFrom(
                'type',
                'text',
                'thinking',
                'source',
                'data',
                'input',
                'content',
                'name',
                'arguments',
              ),
              fc.jsonValue(),
            ),
            { maxLength: 4 },
          ),
        }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(entry, { maxLength: 12 }), fc.nat(), async (values, cut) => {
        const text = jsonl(...values.map((v) => JSON.stringify(v)));
        const source = transcriptFromText(text.slice(0, cut % (text.length + 1)), kind);
        for (const record of await collect(source)) expect(typeof record.text).toBe('string');
        expect(source.stats().skipped.malformed).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on a file of arbitrary bytes', async () => {
    const path = join(dir, `${kind}-noise.jsonl`);
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 4000 }), async (bytes) => {
        await writeFile(path, bytes);
        await collect(sourceForPath(path, kind));
      }),
      { numRuns: 40 },
    );
  });
});

describe('secrets never leave an adapter', () => {
  const SECRETS = [
    'sk-proj-4fQx9Lm2Zt8Rb7Wc1Yh3Nk5Pv6Dj0Gs2Ea7Ti9Uo4',
    'ghp_1234567890abcdefghijklmnopqrstuvwxyzAB',
    'AKIAQ3EGRS5YBRSTUVWX',
    'xoxb-123456789012-abcdefghijkl',
    'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
  ];
  const planted = fc
    .tuple(fc.string({ maxLength: 40 }), fc.constantFrom(...SECRETS), fc.string({ maxLength: 40 }))
    .map(([a, s, b]) => ({ secret: s, text: `${a} ${s}\n${b}` }));

  /** One transcript per format carrying the planted text in prose, tool input and tool output. */
  function carrying(kind: TranscriptKind, text: string): string {
    if (kind === 'claude') {
      return jsonl(
        { type: 'user', sessionId: 's', message: { role: 'user', content: text } },
        {
          type: 'assistant',
          sessionId: 's',
          message: {
            id: 'm1',
            role: 'assistant',
            content: [
              { type: 'text', text },
              { type: 'tool_use', id: 't1', name: 'Bash', input: { command: text } },
            ],
          },
        },
        {
          type: 'user',
          sessionId: 's',
          message: {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text }] },
            ],
          },
        },
      );
    }
    if (kind === 'pi') {
      return jsonl(
        { type: 'session', id: 'x', cwd: '/w' },
        {
          type: 'message',
          message: {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: text },
              { type: 'toolCall', id: 'c', name: 'bash', arguments: { command: text } },
            ],
          },
        },
        { type: 'message', message: { role: 'bashExecution', command: text, output: text } },
        { type: 'compaction', summary: text },
      );
    }
    if (kind === 'codex') {
      return jsonl(
        { type: 'session_meta', payload: { id: 's', cwd: '/w' } },
        {
          type: 'response_item',
          payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] },
        },
        {
          type: 'response_item',
          payload: {
            type: 'function_call',
            name: 'shell',
            arguments: JSON.stringify({ command: ['bash', '-lc', text] }),
            call_id: 'c',
          },
        },
        {
          type: 'response_item',
          payload: { type: 'function_call_output', call_id: 'c', output: text },
        },
        { type: 'compacted', payload: { message: text } },
      );
    }
    return jsonl(
      {
        role: 'assistant',
        content: text,
        tool_calls: [{ function: { name: 'sh', arguments: JSON.stringify({ cmd: text }) } }],
      },
      { role: 'tool', content: text },
    );
  }

  it.each(TRANSCRIPT_KINDS)('%s', async (kind) => {
    await fc.assert(
      fc.asyncProperty(planted, async ({ secret, text }) => {
        const source = transcriptFromText(carrying(kind, text), kind);
        const records = await collect(source);
        expect(records.length).toBeGreaterThan(0);
        for (const record of records) expect(record.text).not.toContain(secret);
        expect(Object.keys(source.stats().secrets).length).toBeGreaterThan(0);
      }),
      { numRuns: 100 },
    );
  });
});

describe('typed errors', () => {
  it('a missing path is NOT_FOUND, raised when iteration starts', async () => {
    const source = sourceForPath(join(dir, 'nope.jsonl'), 'pi');
    const error = await collect(source).catch((e: unknown) => e);
    expect(hasErrorCode(error, 'NOT_FOUND')).toBe(true);
  });

  it('an unknown kind is INVALID_INPUT', () => {
    let error: unknown;
    try {
      sourceForPath(dir, 'gemini' as TranscriptKind);
    } catch (e) {
      error = e;
    }
    expect(isMemError(error) && error.code === 'INVALID_INPUT').toBe(true);
  });
});

describe('in-memory transcripts go through the same adapter code', () => {
  it('yield the same records as the file, without a file, and parse a final line without \\n', async () => {
    const { readFile } = await import('node:fs/promises');
    const path = transcript('claude', 'spotter-tool_heavy.jsonl');
    const fromFile = await collect(sourceForPath(path, 'claude'));
    const text = (await readFile(path, 'utf8')).trimEnd();
    const source = transcriptFromText(text, 'claude', { name: 'posted' });
    const fromText = await collect(source);
    expect(fromText).toEqual(
      fromFile.map((r) => ({
        ...r,
        provenance: {
          source: r.provenance.source,
          line: r.provenance.line,
          entry: r.provenance.entry,
        },
      })),
    );
    expect(source.stats().truncatedTails.count).toBe(0);
  });

  it('can force the provenance source', async () => {
    const records = await collect(
      transcriptFromText(jsonl(GOOD_LINE.pi(1)), 'pi', { source: 'http:ing-1' }),
    );
    expect(records[0]?.provenance).toEqual({ source: 'http:ing-1', line: 1 });
  });
});
