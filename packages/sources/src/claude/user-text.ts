import type { RecordRole } from '@mem/chunk';

/** What a Claude Code `user` text turns into: a record of some role, or a skip of some kind. */
export type UserTextClass = { role: RecordRole; text: string } | { skip: string };

/** How a compaction summary begins when a build wrote it without `isCompactSummary` (research §1.7). */
export const CONTINUED_PREFIX = 'This session is being continued from a previous conversation';

const SYSTEM_REMINDER = /<system-reminder>[\s\S]*?(?:<\/system-reminder>|$)/gu;

/**
 * Sorts a `user` text into what a human typed and what the CLI injected (research §1.4, §3.9):
 * - compaction summary (`isCompactSummary`, or the "being continued" prefix) → `summary`;
 * - `isMeta` (slash-command expansions, caveats, hook reminders) → skipped `meta`;
 * - `<command-name>` wrappers → `user` "/name args" when the user typed arguments (they are the
 *   user's words), else skipped `slash-command`;
 * - `<local-command-…>` output → skipped `local-command`; `<system-reminder>` blocks are removed
 *   and a text that was only reminders is skipped `system-reminder`;
 * - "[Request interrupted by user…]" → `system` (the user stopping the agent is a signal);
 * - `<bash-input>` → `tool_call`, `<bash-stdout>`/`<bash-stderr>` → `tool_result` (a `!` command);
 * - anything else → `user`.
 */
export function classifyUserText(raw: string, flags: { isMeta: boolean; isCompactSummary: boolean }): UserTextClass {
  const text = raw.trim();
  if (flags.isCompactSummary || text.startsWith(CONTINUED_PREFIX)) return { role: 'summary', text };
  if (flags.isMeta) return { skip: 'meta' };
  if (text.startsWith('<command-')) return slashCommand(text);
  if (text.startsWith('<local-command-')) return { skip: 'local-command' };
  if (text.startsWith('<bash-input>')) return { role: 'tool_call', text: `$ ${stripTags(text)}` };
  if (text.startsWith('<bash-stdout>') || text.startsWith('<bash-stderr>')) return { role: 'tool_result', text: stripTags(text) };
  if (text.startsWith('[Request interrupted')) return { role: 'system', text };
  if (text.includes('<system-reminder>')) {
    const rest = text.replace(SYSTEM_REMINDER, '').trim();
    return rest === '' ? { skip: 'system-reminder' } : { role: 'user', text: rest };
  }
  return { role: 'user', text };
}

function slashCommand(text: string): UserTextClass {
  const name = /<command-name>([\s\S]*?)<\/command-name>/u.exec(text)?.[1]?.trim() ?? '';
  const args = /<command-args>([\s\S]*?)<\/command-args>/u.exec(text)?.[1]?.trim() ?? '';
  if (args === '') return { skip: 'slash-command' };
  const command = name === '' ? '' : name.startsWith('/') ? name : `/${name}`;
  return { role: 'user', text: command === '' ? args : `${command} ${args}` };
}

function stripTags(text: string): string {
  return text.replace(/<\/?[a-z][a-z-]*>/gu, '').trim();
}
