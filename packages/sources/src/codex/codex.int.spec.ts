import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sourceForPath } from '../for-path.js';
import { collect } from '../testing/fixtures.js';
import { codexSessionSource } from './source.js';

const SESSIONS = fileURLToPath(new URL('./__fixtures__/sessions/', import.meta.url));
const SESSION = 'codex:0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';

describe('Codex rollout reader over the committed fixture', () => {
  it('reads response items once, skips the event echo and harness messages, counts every line', async () => {
    const source = codexSessionSource(SESSIONS);
    const records = await collect(source);
    expect(records.map((r) => [r.role, r.text.split('\n')[0], r.provenance.line])).toEqual([
      ['user', 'Why does the theme loader crash on startup?', 6],
      ['assistant', '[thinking] **Inspecting the theme loader**', 8],
      [
        'tool_call',
        'shell {"command":["bash","-lc","npm test -- theme"],"workdir":"/home/dev/theme-app"}',
        10,
      ],
      ['tool_result', 'shell error:', 11],
      ['tool_call', 'apply_patch *** Begin Patch', 14],
      ['tool_result', 'apply_patch result:', 15],
      ['tool_call', 'web_search {"type":"search","query":"css hex color validation regex"}', 17],
      [
        'assistant',
        'The loader crashed because hexToRgb threw on an invalid hex colour; it now falls back to the dark theme.',
        18,
      ],
      ['summary', '## Key decisions', 21],
    ]);
    expect(records[3]?.text).toContain("Invalid hex color '#zzz'");
    expect(records[3]?.text).toContain('(exit 1)');
    expect(records[8]?.sections).toEqual([
      { heading: 'Key decisions', text: '- Invalid theme colours fall back to the dark theme.' },
      { heading: 'Pending tasks', text: '- Add a test for hexToRgb.' },
    ]);
    for (const r of records)
      expect(r).toMatchObject({ cwd: '/home/dev/theme-app', provenance: { source: SESSION } });
    expect(records.some((r) => r.text.includes('gAAAA'))).toBe(false);
    const stats = source.stats();
    expect(stats.files).toBe(1);
    expect(stats.lines).toBe(21);
    expect(stats.skipped).toEqual({
      'environment-context': 1,
      'event:agent_message': 1,
      'event:agent_reasoning': 1,
      'event:exec_command_end': 1,
      'event:patch_apply_end': 1,
      'event:task_complete': 1,
      'event:task_started': 1,
      'event:token_count': 1,
      'event:user_message': 1,
      'role:developer': 1,
      'session-meta': 1,
      'turn-context': 1,
    });
    expect(stats.unknown).toEqual({ count: 0, top: [] });
  });

  it('codex is a kind sourceForPath takes; a directory walk reads rollout-*.jsonl only', async () => {
    const source = sourceForPath(SESSIONS, 'codex');
    expect(source.kind).toBe('codex');
    expect((await collect(source)).length).toBe(9);
    expect(source.stats().files).toBe(1);
  });

  it('counts unknown line and payload types and names the commonest', async () => {
    const { transcriptFromText } = await import('../memory.js');
    const lines = [
      { type: 'from-the-future', payload: {} },
      { type: 'from-the-future', payload: {} },
      { type: 'response_item', payload: { type: 'hologram' } },
      { type: 'event_msg', payload: { type: 'new_event' } },
    ];
    const source = transcriptFromText(lines.map((l) => JSON.stringify(l)).join('\n'), 'codex');
    expect(await collect(source)).toEqual([]);
    expect(source.stats().unknown).toEqual({
      count: 4,
      top: [
        { count: 2, kind: 'unknown:from-the-future' },
        { count: 1, kind: 'unknown:event_msg:new_event' },
        { count: 1, kind: 'unknown:response_item:hologram' },
      ],
    });
  });
});
