import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
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

describe('a cwd filter: Codex files its sessions by date, a project reads only its own', () => {
  const meta = (cwd: string | null) =>
    JSON.stringify({
      timestamp: '2025-09-20T10:00:00.000Z',
      type: 'session_meta',
      payload:
        cwd === null
          ? { id: 'x' }
          : { id: `id-${cwd.length}`, cwd, instructions: 'x'.repeat(40_000) },
    });
  const message = (text: string) =>
    JSON.stringify({
      timestamp: '2025-09-20T10:00:01.000Z',
      type: 'response_item',
      payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] },
    });

  async function tree(files: Record<string, string[]>): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'mem-codex-cwd-'));
    for (const [name, lines] of Object.entries(files)) {
      await mkdir(dirname(join(dir, name)), { recursive: true });
      await writeFile(join(dir, name), lines.map((l) => `${l}\n`).join(''));
    }
    return dir;
  }

  it('keeps sessions that started in the directory or under it; counts the others by reason', async () => {
    const dir = await tree({
      '2025/09/20/rollout-a.jsonl': [meta('/home/dev/app'), message('in the app')],
      '2025/09/20/rollout-b.jsonl': [meta('/home/dev/app/packages/ui/'), message('under it')],
      '2025/09/21/rollout-c.jsonl': [meta('/home/dev/app2'), message('a sibling, not under it')],
      '2025/09/21/rollout-d.jsonl': [meta('/home/dev/other'), message('another project')],
      '2025/09/22/rollout-e.jsonl': [meta(null), message('no cwd recorded')],
      '2025/09/22/rollout-f.jsonl': [message('the old format: no session_meta')],
      '2025/09/22/rollout-g.jsonl': [],
    });
    const source = sourceForPath(dir, 'codex', undefined, { cwd: '/home/dev/app/' });
    const records = await collect(source);
    expect(records.map((r) => r.text)).toEqual(['in the app', 'under it']);
    expect(source.stats().files).toBe(2);
    expect(source.stats().filesSkipped).toEqual({ 'cwd-unknown': 3, 'other-cwd': 2 });
    // The directory source takes the same filter; no filter reads every rollout.
    const all = codexSessionSource(dir);
    expect((await collect(all)).length).toBe(6);
    const one = codexSessionSource(dir, undefined, { cwd: '/home/dev/other' });
    expect((await collect(one)).map((r) => r.text)).toEqual(['another project']);
  });

  it('refuses a cwd filter on a kind whose files are already one project’s, before reading', () => {
    let error: unknown;
    try {
      sourceForPath(SESSIONS, 'claude', undefined, { cwd: '/home/dev/app' });
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({
      code: 'INVALID_INPUT',
      details: { field: 'cwd', kind: 'claude' },
    });
  });
});
