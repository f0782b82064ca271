import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourceForPath } from '../for-path.js';
import { collect, transcript } from '../testing/fixtures.js';
import { claudeProjectSource } from './source.js';

const ZERO = { assistant: 0, summary: 0, system: 0, tool_call: 0, tool_result: 0, user: 0 };

/** Per real file: records by role and skipped lines by kind (research §1; counts checked by hand). */
const EXPECTED: Record<
  string,
  { records: Partial<typeof ZERO>; skipped: Record<string, number>; lines: number }
> = {
  'spotter-short.jsonl': {
    lines: 15,
    // One response over 5 lines (blank text, thinking, text, 2 tool_use) → the thinking and the
    // spoken text as 2 assistant records, + 2 tool_call.
    records: { user: 1, assistant: 2, tool_call: 2, tool_result: 2, system: 1 },
    skipped: { 'file-history-snapshot': 1, progress: 3, 'system:local_command': 2 },
  },
  'spotter-tool_heavy.jsonl': {
    lines: 39,
    records: { user: 2, assistant: 2, tool_call: 6, tool_result: 6, system: 2 },
    skipped: {
      'file-history-snapshot': 3,
      'local-command': 1,
      meta: 1,
      progress: 10,
      'queue-operation': 2,
      'slash-command': 1,
      'system:local_command': 2,
    },
  },
  'spotter-subagent.jsonl': {
    lines: 96,
    records: { user: 2, assistant: 11, tool_call: 16, tool_result: 16, system: 1 },
    skipped: { 'file-history-snapshot': 3, meta: 1, progress: 44, 'system:stop_hook_summary': 1 },
  },
  'spotter-258c7280-subagents-agent-a881341.jsonl': {
    lines: 10,
    records: { user: 1, assistant: 3, tool_call: 2, tool_result: 2 },
    skipped: { progress: 2 },
  },
  'spotter-258c7280-subagents-agent-acompact-fffbd0.jsonl': {
    lines: 4,
    // The compaction run read on its own: its prompt is harness text, its answer the summary.
    records: { summary: 1 },
    skipped: { 'compaction-prompt': 1, meta: 2 },
  },
  'ccviewer-fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl': {
    lines: 438,
    // 405 inline sidechain lines are kept (no separate subagent files in this layout).
    records: { user: 7, assistant: 95, tool_call: 167, tool_result: 167 },
    skipped: { meta: 1, title: 1 },
  },
};

describe('Claude Code adapter over the real transcripts', () => {
  for (const [name, expected] of Object.entries(EXPECTED)) {
    it(`${name}: records per role and skips per kind`, async () => {
      const source = sourceForPath(transcript('claude', name), 'claude');
      const records = await collect(source);
      const stats = source.stats();
      expect(stats.records).toEqual({ ...ZERO, ...expected.records });
      expect(stats.skipped).toEqual(expected.skipped);
      expect(stats.lines).toBe(expected.lines);
      expect(stats).toMatchObject({
        files: 1,
        invalidJson: { count: 0 },
        truncatedTails: { count: 0 },
        duplicateUuids: 0,
        secrets: {},
      });
      expect(records).toHaveLength(Object.values(expected.records).reduce((a, b) => a + b, 0));
      for (const r of records) {
        expect(r.provenance.file).toBe(transcript('claude', name));
        expect(r.text.trim()).not.toBe('');
        expect(r.cwd).not.toBeNull();
        expect(r.timestamp).not.toBeNull();
      }
    });
  }

  it('merges one response split over lines by message.id, drops blank text and signatures', async () => {
    const records = await collect(
      sourceForPath(transcript('claude', 'spotter-short.jsonl'), 'claude'),
    );
    const [user, thinking, assistant, bash, glob, bashResult, globResult, interrupted] = records;
    expect(user).toEqual({
      role: 'user',
      text: 'mix phx.server doesnt seem to start',
      timestamp: '2026-02-10T21:11:56.846Z',
      cwd: '/home/marco/projects/spotter',
      provenance: {
        source: 'claude:55604662-cf2a-4331-851a-ec234028f8ca',
        file: transcript('claude', 'spotter-short.jsonl'),
        line: 4,
        entry: '7d48cbd2-6615-4dd8-87f6-38f12b8167d6',
      },
    });
    // The thinking block and the text after it are one response but two records: a reader of
    // the spoken text must not find it behind a "[thinking]" prefix.
    expect(thinking?.role).toBe('assistant');
    expect(thinking?.provenance).toMatchObject({
      line: 6,
      entry: expect.stringMatching(/^msg_01MKH1cc/u),
    });
    expect(thinking?.text).toMatch(
      /^\[thinking\] The user is having trouble starting their Phoenix server\./u,
    );
    expect(thinking?.text).not.toContain('Let me check the project structure');
    expect(assistant?.role).toBe('assistant');
    expect(assistant?.provenance).toMatchObject({
      line: 7,
      entry: thinking?.provenance.entry,
    });
    expect(assistant?.text).toMatch(
      /^Let me check the project structure and try running the server/u,
    );
    for (const r of [thinking, assistant]) expect(r?.text).not.toMatch(/signature|^\s/u);
    expect(bash?.text).toBe('Bash {"command":"mix phx.server 2>&1 | head -80","timeout":30000}');
    expect(glob?.text).toBe('Glob {"pattern":"mix.exs","path":"/home/marco/projects/spotter"}');
    expect(bashResult?.text).toMatch(/^Bash error:\nThe user doesn't want to proceed/u);
    expect(globResult?.text).toMatch(/^Glob error:/u);
    expect(interrupted).toMatchObject({
      role: 'system',
      text: '[Request interrupted by user for tool use]',
    });
  });

  it('keeps the order call → result when results arrive between lines of one response', async () => {
    const records = await collect(
      sourceForPath(transcript('claude', 'spotter-tool_heavy.jsonl'), 'claude'),
    );
    const read = records.findIndex((r) => r.role === 'tool_call' && r.text.startsWith('Read '));
    expect(records[read + 1]?.text).toMatch(/^Read result:\n {5}1→import "phoenix_html"/u);
    expect(records[read + 2]?.text).toMatch(/^WebFetch /u);
  });

  it('names old inline sidechains apart from the main thread, and subagent files by agent id', async () => {
    const old = await collect(
      sourceForPath(
        transcript('claude', 'ccviewer-fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl'),
        'claude',
      ),
    );
    const sources = new Set(old.map((r) => r.provenance.source));
    expect([...sources].sort()).toEqual([
      'claude:fe5e1c67-53e7-4862-81ae-d0e013e3270b',
      'claude:fe5e1c67-53e7-4862-81ae-d0e013e3270b/sidechain',
    ]);
    expect(old.find((r) => r.role === 'user')?.text).toBe(
      '/orchestrator create TODO app by Next.js',
    );
    const cwds = new Set(old.map((r) => r.cwd));
    expect(cwds.has('/path/to/Demo')).toBe(true);
    expect(cwds.size).toBeGreaterThan(1);

    const sub = await collect(
      sourceForPath(
        transcript('claude', 'spotter-258c7280-subagents-agent-a881341.jsonl'),
        'claude',
      ),
    );
    expect(new Set(sub.map((r) => r.provenance.source))).toEqual(
      new Set(['claude:258c7280-ae70-4798-800f-63464d01a85d/agent-a881341']),
    );
    expect(sub[0]).toMatchObject({ role: 'user', provenance: { line: 1 } });
  });

  it('caps tool output to head + tail and counts what it cut', async () => {
    const source = sourceForPath(
      transcript('claude', 'spotter-258c7280-subagents-agent-a881341.jsonl'),
      'claude',
      { toolTextCap: 1000 },
    );
    const records = await collect(source);
    for (const r of records.filter((x) => x.role === 'tool_result')) {
      expect(r.text.length).toBeLessThan(1100);
      expect(r.text).toMatch(/\n\[… \d+ chars cut …\]\n/u);
    }
    expect(source.stats().toolTextCut.count).toBe(2);
  });

  it('can drop thinking text', async () => {
    const source = sourceForPath(transcript('claude', 'spotter-short.jsonl'), 'claude', {
      thinking: false,
    });
    const records = await collect(source);
    expect(records.some((r) => r.text.includes('[thinking]'))).toBe(false);
    expect(source.stats().skipped.thinking).toBe(1);
  });
});

describe('claudeProjectSource over a project directory', () => {
  let root: string;
  const session = '258c7280-ae70-4798-800f-63464d01a85d';

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'mem-claude-'));
    const project = join(root, '-home-USER-projects-spotter');
    await mkdir(join(project, session, 'subagents'), { recursive: true });
    await copyFile(
      transcript('claude', 'spotter-short.jsonl'),
      join(project, '55604662-cf2a-4331-851a-ec234028f8ca.jsonl'),
    );
    await copyFile(
      transcript('claude', 'spotter-tool_heavy.jsonl'),
      join(project, 'd6e0bada-1959-4eec-a9d2-0bfade768d8f.jsonl'),
    );
    await copyFile(
      transcript('claude', 'spotter-258c7280-subagents-agent-a881341.jsonl'),
      join(project, session, 'subagents', 'agent-a881341.jsonl'),
    );
    await copyFile(
      transcript('claude', 'spotter-258c7280-subagents-agent-acompact-fffbd0.jsonl'),
      join(project, session, 'subagents', 'agent-acompact-fffbd0.jsonl'),
    );
    // A resumed session replays earlier lines in another file: its uuids are already read.
    await copyFile(
      transcript('claude', 'spotter-short.jsonl'),
      join(project, 'ffffffff-resumed.jsonl'),
    );
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('walks recursively in sorted order, skips compaction runs, dedupes uuids across files', async () => {
    const source = claudeProjectSource(root);
    const records = await collect(source);
    const stats = source.stats();
    expect(stats.files).toBe(4);
    expect(stats.filesSkipped).toEqual({ 'acompact-file': 1 });
    // spotter-short has 4 user + 5 assistant lines with uuids: all seen before in the replay.
    expect(stats.duplicateUuids).toBe(9);
    expect(stats.skipped['duplicate-uuid']).toBe(9);
    expect(stats.records).toEqual({
      assistant: 7,
      summary: 0,
      system: 3,
      tool_call: 10,
      tool_result: 10,
      user: 4,
    });
    const files = [...new Set(records.map((r) => r.provenance.file?.slice(root.length)))];
    expect(files).toEqual([
      '/-home-USER-projects-spotter/258c7280-ae70-4798-800f-63464d01a85d/subagents/agent-a881341.jsonl',
      '/-home-USER-projects-spotter/55604662-cf2a-4331-851a-ec234028f8ca.jsonl',
      '/-home-USER-projects-spotter/d6e0bada-1959-4eec-a9d2-0bfade768d8f.jsonl',
    ]);
  });

  it('reads again from scratch on a second iteration', async () => {
    const source = claudeProjectSource(root);
    const first = await collect(source);
    const second = await collect(source);
    expect(second).toEqual(first);
    expect(source.stats().duplicateUuids).toBe(9);
  });
});
