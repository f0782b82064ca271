import { describe, expect, it } from 'vitest';
import { classifyUserText } from './user-text.js';

const plain = { isMeta: false, isCompactSummary: false };

describe('classifyUserText', () => {
  it('a typed prompt is user text', () => {
    expect(classifyUserText('mix phx.server doesnt seem to start', plain)).toEqual({
      role: 'user',
      text: 'mix phx.server doesnt seem to start',
    });
  });

  it('compaction summaries are summaries, flagged or recognised by their opening', () => {
    expect(
      classifyUserText('Analysis: …', { isMeta: false, isCompactSummary: true }),
    ).toMatchObject({ role: 'summary' });
    expect(
      classifyUserText(
        'This session is being continued from a previous conversation that ran out of context.',
        plain,
      ),
    ).toMatchObject({
      role: 'summary',
    });
  });

  it('injected meta text is skipped', () => {
    expect(
      classifyUserText('<local-command-caveat>Caveat: …</local-command-caveat>', {
        isMeta: true,
        isCompactSummary: false,
      }),
    ).toEqual({
      skip: 'meta',
    });
  });

  it('a slash command keeps the arguments the user typed, and is skipped without any', () => {
    const withArgs =
      '<command-message>orchestrator is running…</command-message>\n<command-name>/orchestrator</command-name>\n<command-args>create TODO app by Next.js</command-args>';
    expect(classifyUserText(withArgs, plain)).toEqual({
      role: 'user',
      text: '/orchestrator create TODO app by Next.js',
    });
    expect(
      classifyUserText(
        '<command-name>/mcp</command-name>\n<command-message>mcp</command-message>\n<command-args></command-args>',
        plain,
      ),
    ).toEqual({
      skip: 'slash-command',
    });
  });

  it('local command output and bare reminders are skipped; reminders are cut out of a prompt', () => {
    expect(
      classifyUserText('<local-command-stdout>Reconnected</local-command-stdout>', plain),
    ).toEqual({ skip: 'local-command' });
    expect(classifyUserText('<system-reminder>hook said</system-reminder>', plain)).toEqual({
      skip: 'system-reminder',
    });
    expect(classifyUserText('fix it\n<system-reminder>hook said</system-reminder>', plain)).toEqual(
      { role: 'user', text: 'fix it' },
    );
  });

  it('an interruption is a system record; a ! command is a tool call and its output a tool result', () => {
    expect(classifyUserText('[Request interrupted by user for tool use]', plain)).toEqual({
      role: 'system',
      text: '[Request interrupted by user for tool use]',
      retyped: 'interrupted',
    });
    expect(classifyUserText('<bash-input>ls -la</bash-input>', plain)).toEqual({
      role: 'tool_call',
      text: '$ ls -la',
    });
    expect(
      classifyUserText('<bash-stdout>a\nb</bash-stdout><bash-stderr></bash-stderr>', plain),
    ).toEqual({ role: 'tool_result', text: 'a\nb' });
  });
});
