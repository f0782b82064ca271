import { describe, expect, it } from 'vitest';
import { transcriptFromText } from '../memory.js';
import { collect, jsonl } from '../testing/fixtures.js';

const base = {
  sessionId: '258c7280-ae70-4798-800f-63464d01a85d',
  cwd: '/home/USER/projects/spotter',
  timestamp: '2026-02-11T21:18:41.543Z',
};
let n = 0;
const uuid = () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
const user = (content: unknown, extra: object = {}) => ({
  ...base,
  type: 'user',
  uuid: uuid(),
  message: { role: 'user', content },
  ...extra,
});
const assistant = (id: string, content: unknown[], extra: object = {}) => ({
  ...base,
  type: 'assistant',
  uuid: uuid(),
  message: { id, type: 'message', role: 'assistant', model: 'claude-opus-4-6', content },
  ...extra,
});

describe('Claude Code reader: shapes the shipped files do not show', () => {
  it('compaction: the boundary is skipped, the summary kept as a summary (flagged or by its opening)', async () => {
    // The boundary line is verbatim from research §1.7 (spotter 258c7280…, not shipped: 2.7 MB).
    const boundary =
      '{"parentUuid":null,"logicalParentUuid":"7c642069-996d-4ae0-a61c-554b35d36fb6","isSidechain":false,"userType":"external","cwd":"/home/USER/projects/spotter-worktrees/spotter-gqc","sessionId":"258c7280-ae70-4798-800f-63464d01a85d","version":"2.1.39","gitBranch":"spotter-gqc","slug":"modular-petting-thompson","type":"system","subtype":"compact_boundary","content":"Conversation compacted","isMeta":false,"timestamp":"2026-02-11T21:18:41.543Z","uuid":"d46d6800-2f43-4360-ba84-c1de9c1ecbae","level":"info","compactMetadata":{"trigger":"auto","preTokens":167094}}';
    const source = transcriptFromText(
      jsonl(
        boundary,
        user(
          'This session is being continued from a previous conversation that ran out of context. Analysis: …',
          {
            isCompactSummary: true,
            isVisibleInTranscriptOnly: true,
          },
        ),
        user('This session is being continued from a previous conversation. (no flag)'),
        {
          ...base,
          type: 'system',
          subtype: 'away_summary',
          uuid: uuid(),
          content: 'While you were away: tests pass.',
        },
      ),
      'claude',
    );
    const records = await collect(source);
    expect(records.map((r) => r.role)).toEqual(['summary', 'summary', 'summary']);
    expect(records[0]?.cwd).toBe('/home/USER/projects/spotter');
    expect(source.stats().skipped).toEqual({ 'system:compact_boundary': 1 });
  });

  it('images and documents become counted placeholders; text documents keep their text', async () => {
    const png = 'iVBORw0KGgo'.padEnd(4000, 'A');
    const source = transcriptFromText(
      jsonl(
        user([
          { type: 'text', text: 'what is wrong here?' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } },
          {
            type: 'document',
            source: {
              type: 'base64',
              media_type: 'application/pdf',
              data: 'JVBERi0'.padEnd(2000, 'A'),
            },
          },
          {
            type: 'document',
            source: { type: 'text', media_type: 'text/plain', data: 'notes.txt says hi' },
          },
        ]),
        assistant('msg_1', [
          { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: '/a.png' } },
        ]),
        user([
          {
            type: 'tool_result',
            tool_use_id: 'toolu_1',
            content: [
              { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: png } },
              { type: 'tool_reference', tool_name: 'Read' },
            ],
          },
        ]),
        user(`see data:image/png;base64,${png} inline`),
      ),
      'claude',
    );
    const records = await collect(source);
    expect(records.map((r) => r.text)).toEqual([
      'what is wrong here?\n\n[image image/png 3KB]\n\n[document application/pdf 1KB]\n\nnotes.txt says hi',
      'Read {"file_path":"/a.png"}',
      'Read result:\n[image image/jpeg 3KB]\n[tool_reference Read]',
      'see [image image/png 3KB] inline',
    ]);
    expect(source.stats().media).toEqual({ images: 3, documents: 1, bytes: 3 * 3000 + 1500 });
  });

  it('drops redacted thinking, renders CLI-generated errors as system, and never merges across sources', async () => {
    const source = transcriptFromText(
      jsonl(
        assistant('msg_1', [
          { type: 'redacted_thinking', data: 'opaque' },
          { type: 'text', text: 'main thread' },
        ]),
        assistant('msg_1', [{ type: 'text', text: 'subagent, same id' }], {
          isSidechain: true,
          agentId: 'a1',
        }),
        assistant('msg_err', [{ type: 'text', text: 'API Error: 529 overloaded' }], {
          isApiErrorMessage: true,
          message: undefined,
        }),
        {
          ...assistant('x', []),
          message: {
            id: 'msg_2',
            role: 'assistant',
            model: '<synthetic>',
            content: [{ type: 'text', text: 'No response requested.' }],
          },
        },
        assistant('msg_3', [{ type: 'server_tool_use', id: 's1' }]),
      ),
      'claude',
    );
    const records = await collect(source);
    expect(records.map((r) => [r.role, r.text, r.provenance.source])).toEqual([
      ['assistant', 'main thread', 'claude:258c7280-ae70-4798-800f-63464d01a85d'],
      ['assistant', 'subagent, same id', 'claude:258c7280-ae70-4798-800f-63464d01a85d/agent-a1'],
      ['system', 'No response requested.', 'claude:258c7280-ae70-4798-800f-63464d01a85d'],
    ]);
    expect(source.stats().skipped).toEqual({
      'block:server_tool_use': 1,
      'malformed:assistant': 1,
      'redacted-thinking': 1,
    });
  });

  it('falls back to the previous timestamp and cwd, and to the file name for a missing session id', async () => {
    const source = transcriptFromText(
      jsonl(
        {
          type: 'user',
          uuid: uuid(),
          message: { role: 'user', content: 'first' },
          timestamp: '2026-01-01T00:00:00.000Z',
          cwd: '/w',
        },
        { type: 'user', message: { role: 'user', content: 'second' } },
      ),
      'claude',
      { name: 'f00d' },
    );
    const records = await collect(source);
    expect(records[1]).toMatchObject({
      timestamp: '2026-01-01T00:00:00.000Z',
      cwd: '/w',
      provenance: { source: 'claude:f00d', line: 2 },
    });
    expect(records[1]?.provenance.entry).toBeUndefined();
  });
});
