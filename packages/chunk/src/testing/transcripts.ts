import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RecordRole, SourceRecord } from '../record.js';

/** The real transcripts shipped with the repository (test/fixtures/transcripts). */
export function transcriptsDir(): string {
  return join(
    dirname(fileURLToPath(import.meta.url)),
    '..',
    '..',
    '..',
    '..',
    'test',
    'fixtures',
    'transcripts',
  );
}

/** Every transcript file, sorted. */
export function transcriptFiles(dir: string): string[] {
  return ['claude', 'pi']
    .flatMap((sub) =>
      existsSync(join(dir, sub)) ? readdirSync(join(dir, sub)).map((f) => join(dir, sub, f)) : [],
    )
    .filter((f) => f.endsWith('.jsonl'))
    .sort();
}

const ROLE: Record<string, RecordRole> = {
  user: 'user',
  assistant: 'assistant',
  toolResult: 'tool_result',
  bashExecution: 'tool_result',
};

/**
 * A rough reading of Claude and pi JSONL into records (message text, thinking, tool calls as
 * JSON, tool results); images are left out. For exercising the chunker on real text, not a
 * source adapter.
 */
export function roughRecords(file: string): SourceRecord[] {
  const source = `test:${file.split('/').slice(-2).join('/')}`;
  const out: SourceRecord[] = [];
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((raw, i) => {
      let entry: { message?: { role?: string; content?: unknown }; timestamp?: string };
      try {
        entry = JSON.parse(raw) as typeof entry;
      } catch {
        return;
      }
      const message = entry.message;
      if (message === undefined || typeof message.role !== 'string') return;
      const push = (role: RecordRole, text: string): void => {
        if (text.length > 0)
          out.push({
            role,
            text,
            timestamp: entry.timestamp ?? null,
            provenance: { source, line: i + 1 },
            cwd: null,
          });
      };
      const role = ROLE[message.role] ?? 'user';
      if (typeof message.content === 'string') return push(role, message.content);
      if (!Array.isArray(message.content)) return;
      for (const block of message.content as Record<string, unknown>[]) {
        if (typeof block.text === 'string') push(role, block.text);
        else if (typeof block.thinking === 'string') push(role, block.thinking);
        else if (block.type === 'tool_use' || block.type === 'toolCall')
          push('tool_call', JSON.stringify(block.input ?? block.arguments ?? {}));
        else if (block.type === 'tool_result') {
          const content = block.content;
          if (typeof content === 'string') push('tool_result', content);
          else if (Array.isArray(content))
            for (const c of content as { text?: unknown }[])
              if (typeof c.text === 'string') push('tool_result', c.text);
        }
      }
    });
  return out;
}
