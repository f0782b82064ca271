import { describe, expect, it } from 'vitest';
import { sourceForPath } from '../for-path.js';
import { transcriptFromText } from '../memory.js';
import { collect, jsonl, transcript } from '../testing/fixtures.js';
import { piSessionSource } from './source.js';

const ZERO = { assistant: 0, summary: 0, system: 0, tool_call: 0, tool_result: 0, user: 0 };

/** Per real file (all pi v1): records by role, skipped lines by kind, glued lines recovered. */
const EXPECTED: Record<
  string,
  {
    lines: number;
    records: Partial<typeof ZERO>;
    skipped: Record<string, number>;
    glued: number;
    images: number;
  }
> = {
  'pi-mono-large-session.jsonl': {
    lines: 1019,
    // assistant: a response's thinking and its spoken text are separate records.
    records: { user: 83, assistant: 245, tool_call: 391, tool_result: 373, system: 1 },
    skipped: {
      empty: 14,
      model_change: 1,
      'session-header': 1,
      'slash-command': 5,
      thinking_level_change: 103,
    },
    glued: 0,
    images: 0,
  },
  'pi-mono-compact.jsonl': {
    lines: 1013,
    // tool_result: 429 toolResult + 1 bashExecution; summary: line 670 and the glued line 1013.
    records: { user: 77, assistant: 203, tool_call: 432, tool_result: 430, summary: 2 },
    skipped: { empty: 6, 'session-header': 1 },
    glued: 1,
    images: 3,
  },
  'pi-mono-session.jsonl': {
    lines: 463,
    records: { user: 44, assistant: 258, tool_call: 189, tool_result: 190, summary: 1 },
    skipped: { empty: 6, 'session-header': 1, thinking_level_change: 8 },
    glued: 1,
    images: 0,
  },
};

describe('pi adapter over the real sessions', () => {
  it('a compaction entry is a summary with its sections', async () => {
    const records = await collect(sourceForPath(transcript('pi', 'pi-mono-compact.jsonl'), 'pi'));
    const summary = records.find((r) => r.role === 'summary');
    expect(summary?.sections?.map((s) => s.heading).slice(0, 3)).toEqual([
      'Context Checkpoint Summary',
      'Project Overview',
      'Session Progress',
    ]);
    // The headings a section sits under survive the sink: "Avoiding Global State" is a
    // decision only because it lies under "Key Architecture Decisions".
    const avoiding = summary?.sections?.find((s) => s.heading === 'Avoiding Global State');
    expect(avoiding?.path).toEqual(['Context Checkpoint Summary', 'Key Architecture Decisions']);
    expect(summary?.sections?.[0]?.path).toBeUndefined();
  });

  for (const [name, expected] of Object.entries(EXPECTED)) {
    it(`${name}: records per role and skips per kind`, async () => {
      const source = sourceForPath(transcript('pi', name), 'pi');
      const records = await collect(source);
      const stats = source.stats();
      expect(stats.records).toEqual({ ...ZERO, ...expected.records });
      expect(stats.skipped).toEqual(expected.skipped);
      expect(stats.lines).toBe(expected.lines);
      expect(stats.glued).toEqual({ lines: expected.glued, objects: 2 * expected.glued });
      expect(stats.media.images).toBe(expected.images);
      expect(stats).toMatchObject({
        invalidJson: { count: 0 },
        truncatedTails: { count: 0 },
        secrets: {},
      });
      const stem = name.replace(/\.jsonl$/u, '');
      for (const r of records) {
        expect(r.provenance).toMatchObject({ source: `pi:${stem}`, file: transcript('pi', name) });
        expect(r.cwd).toBe('/Users/badlogic/workspaces/pi-mono');
        expect(r.timestamp).toMatch(/^\d{4}-\d\d-\d\dT/u);
      }
    });
  }

  it('recovers both objects of the glued line 440 (assistant, then user)', async () => {
    const records = await collect(sourceForPath(transcript('pi', 'pi-mono-session.jsonl'), 'pi'));
    const glued = records.filter((r) => r.provenance.line === 440);
    // The assistant object is a thinking block and a spoken answer: two records, then the user.
    expect(glued.map((r) => [r.role, r.text])).toEqual([
      ['assistant', expect.stringMatching(/^\[thinking\] Done\. The sub-agents line/u)],
      ['assistant', 'Done.'],
      ['user', 'ok'],
    ]);
  });

  it('recovers both objects of the glued line 1013 (assistant, then a compaction)', async () => {
    const records = await collect(sourceForPath(transcript('pi', 'pi-mono-compact.jsonl'), 'pi'));
    const glued = records.filter((r) => r.provenance.line === 1013);
    expect(glued.map((r) => r.role)).toEqual(['assistant', 'summary']);
    expect(glued[1]?.text).toMatch(/^# Conversation Summary/u);
  });

  it('replaces base64 images by placeholders and counts their bytes', async () => {
    const source = sourceForPath(transcript('pi', 'pi-mono-compact.jsonl'), 'pi');
    const records = await collect(source);
    const image = records.find((r) => r.provenance.line === 812);
    expect(image?.text).toMatch(
      /^read result:\nRead image file \[image\/png\]\n\[image image\/png \d+KB\]$/u,
    );
    expect(source.stats().media.bytes).toBeGreaterThan(150_000);
    expect(records.every((r) => !r.text.includes('iVBORw0KGgo'))).toBe(true);
  });

  it('renders a bashExecution as command and output, and a failed turn as a system record', async () => {
    const records = await collect(sourceForPath(transcript('pi', 'pi-mono-compact.jsonl'), 'pi'));
    expect(records.find((r) => r.provenance.line === 332)).toMatchObject({
      role: 'tool_result',
      text: '$ open out.html',
    });
    const large = await collect(
      sourceForPath(transcript('pi', 'pi-mono-large-session.jsonl'), 'pi'),
    );
    expect(large.find((r) => r.role === 'system')).toMatchObject({
      text: 'error: terminated',
      provenance: { line: 33 },
    });
  });

  it('piSessionSource reads a sessions directory in sorted order', async () => {
    const source = piSessionSource(`${transcript('pi', '')}`);
    const records = await collect(source);
    expect(source.stats().files).toBe(3);
    expect([...new Set(records.map((r) => r.provenance.source))]).toEqual([
      'pi:pi-mono-compact',
      'pi:pi-mono-large-session',
      'pi:pi-mono-session',
    ]);
  });
});

describe('pi adapter: v2/v3 entries (from the format docs; no real v3 file exists)', () => {
  const v3 = jsonl(
    {
      type: 'session',
      version: 3,
      id: 'uuid',
      timestamp: '2024-12-03T14:00:00.000Z',
      cwd: '/path/to/project',
    },
    {
      type: 'message',
      id: 'a1b2c3d4',
      parentId: null,
      timestamp: '2024-12-03T14:00:01.000Z',
      message: { role: 'user', content: 'Hello' },
    },
    {
      type: 'message',
      id: 'b2c3d4e5',
      parentId: 'a1b2c3d4',
      timestamp: '2024-12-03T14:00:02.000Z',
      message: {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'plan', thinkingSignature: 'SIG' },
          { type: 'text', text: 'Reading it.' },
          { type: 'toolCall', id: 'call_1', name: 'read', arguments: { path: 'a.ts' } },
        ],
      },
    },
    {
      type: 'message',
      id: 'c3d4e5f6',
      parentId: 'b2c3d4e5',
      message: {
        role: 'toolResult',
        toolCallId: 'call_1',
        toolName: 'read',
        content: [{ type: 'text', text: 'x' }],
        isError: true,
        timestamp: 1733234403000,
      },
    },
    {
      type: 'message',
      id: 'd4e5f6a7',
      parentId: 'c3d4e5f6',
      timestamp: '2024-12-03T14:00:04.000Z',
      message: {
        role: 'bashExecution',
        command: 'false',
        output: '',
        exitCode: 1,
        cancelled: false,
        truncated: false,
      },
    },
    {
      type: 'message',
      id: 'e5f6a7b8',
      parentId: 'd4e5f6a7',
      timestamp: '2024-12-03T14:00:05.000Z',
      message: { role: 'custom', customType: 'note', content: 'ext says hi', display: true },
    },
    {
      type: 'custom_message',
      id: 'f6a7b8c9',
      parentId: 'e5f6a7b8',
      timestamp: '2024-12-03T14:00:06.000Z',
      customType: 'hint',
      content: [{ type: 'text', text: 'in context' }],
      display: false,
    },
    {
      type: 'branch_summary',
      id: 'a7b8c9d0',
      parentId: 'f6a7b8c9',
      timestamp: '2024-12-03T14:00:07.000Z',
      fromId: 'b2c3d4e5',
      summary: 'Tried X, abandoned.',
    },
    {
      type: 'compaction',
      id: 'b8c9d0e1',
      parentId: 'a7b8c9d0',
      timestamp: '2024-12-03T14:10:00.000Z',
      summary: 'User discussed X, Y, Z...',
      firstKeptEntryId: 'c3d4e5f6',
      tokensBefore: 50000,
    },
    {
      type: 'label',
      id: 'c9d0e1f2',
      parentId: 'b8c9d0e1',
      timestamp: '2024-12-03T14:10:01.000Z',
      targetId: 'a1b2c3d4',
      label: 'start',
    },
    {
      type: 'session_info',
      id: 'd0e1f2a3',
      parentId: 'c9d0e1f2',
      timestamp: '2024-12-03T14:10:02.000Z',
      name: 'demo',
    },
    {
      type: 'brand_new_entry',
      id: 'e1f2a3b4',
      parentId: 'd0e1f2a3',
      timestamp: '2024-12-03T14:10:03.000Z',
    },
  );

  it('maps every entry type and cites entry ids', async () => {
    const source = transcriptFromText(v3, 'pi', { name: '2024-12-03T14-00-00-000Z_uuid' });
    const records = await collect(source);
    expect(records.map((r) => [r.role, r.text, r.provenance.entry])).toEqual([
      ['user', 'Hello', 'a1b2c3d4'],
      ['assistant', '[thinking] plan', 'b2c3d4e5'],
      ['assistant', 'Reading it.', 'b2c3d4e5'],
      ['tool_call', 'read {"path":"a.ts"}', 'b2c3d4e5'],
      ['tool_result', 'read error:\nx', 'c3d4e5f6'],
      ['tool_result', '$ false\n(exit 1)', 'd4e5f6a7'],
      ['system', '[note] ext says hi', 'e5f6a7b8'],
      ['system', '[hint] in context', 'f6a7b8c9'],
      ['summary', 'Tried X, abandoned.', 'a7b8c9d0'],
      ['summary', 'User discussed X, Y, Z...', 'b8c9d0e1'],
    ]);
    expect(records[4]?.timestamp).toBe('2024-12-03T14:00:03.000Z');
    expect(
      records.every(
        (r) =>
          r.cwd === '/path/to/project' &&
          r.provenance.source === 'pi:2024-12-03T14-00-00-000Z_uuid',
      ),
    ).toBe(true);
    expect(source.stats().skipped).toEqual({
      label: 1,
      'session-header': 1,
      session_info: 1,
      'unknown:brand_new_entry': 1,
    });
  });
});
