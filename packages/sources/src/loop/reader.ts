import { ClaudeReader } from '../claude/reader.js';
import { isObject, str, timestampOf, type JsonObject } from '../json.js';
import { PiReader } from '../pi/reader.js';
import { kindLabel, type TranscriptReader } from '../reader.js';
import type { RecordSink } from '../sink.js';
import type { UuidSet } from '../uuid-set.js';
import { openAiMessage } from './openai.js';

/** Claude Code stream-json / transcript line types handed to the Claude reader. */
const CLAUDE_TYPES: ReadonlySet<string> = new Set(['user', 'assistant', 'system']);
/** pi session entry types handed to the pi reader. */
const PI_TYPES: ReadonlySet<string> = new Set([
  'session',
  'message',
  'compaction',
  'branch_summary',
  'custom_message',
]);

/**
 * Reads one loop artifact (one agent's JSONL for one attempt) leniently, line by line, whatever
 * shape each line has: Claude Code transcript or `--output-format stream-json` lines, pi entries
 * (and pi `--mode json` `message_end` events), OpenAI chat messages, or chat-completion responses.
 * Every record is named `loop:<task>/<attempt>` with the agent (`coder`, `reviewer`) as the entry
 * prefix.
 */
export class LoopReader implements TranscriptReader {
  private readonly claude: ClaudeReader;
  private readonly pi: PiReader;
  private timestamp: string | null = null;
  private cwd: string | null = null;

  constructor(
    private readonly sink: RecordSink,
    seen: UuidSet,
    source: string,
    agent: string,
  ) {
    sink.override = { source, entryPrefix: agent };
    this.claude = new ClaudeReader(sink, seen, source);
    this.pi = new PiReader(sink, source);
  }

  entry(value: unknown, line: number): void {
    if (!isObject(value)) {
      this.sink.skip('non-object');
      return;
    }
    const type = str(value.type);
    if (type !== undefined && CLAUDE_TYPES.has(type)) {
      this.claude.entry(value, line);
      return;
    }
    // Keep order: a Claude response still being merged is flushed before any other shape speaks.
    this.claude.finish();
    if (type !== undefined && PI_TYPES.has(type)) this.pi.entry(value, line);
    else if (type === 'message_end' && isObject(value.message))
      this.pi.entry({ ...value, type: 'message' }, line);
    else if (type === 'result') this.sink.skip('result');
    else if (type === undefined && typeof value.role === 'string') this.openAi(value, value, line);
    else if (type === undefined && Array.isArray(value.choices)) this.completion(value, line);
    else this.sink.skip(kindLabel('unknown', type));
  }

  finish(): void {
    this.claude.finish();
  }

  private completion(value: JsonObject, line: number): void {
    const choice: unknown = value.choices instanceof Array ? value.choices[0] : undefined;
    if (isObject(choice) && isObject(choice.message)) this.openAi(value, choice.message, line);
    else this.sink.skip('malformed:completion');
  }

  private openAi(envelope: JsonObject, message: JsonObject, line: number): void {
    const timestamp =
      timestampOf(envelope.timestamp) ??
      timestampOf(envelope.ts) ??
      timestampOf(envelope.created_at) ??
      timestampOf(envelope.created);
    if (timestamp !== undefined) this.timestamp = timestamp;
    const cwd = str(envelope.cwd);
    if (cwd !== undefined && cwd !== '') this.cwd = cwd;
    const entry = str(envelope.id) ?? str(message.id);
    openAiMessage(this.sink, message, {
      source: '',
      line,
      entry,
      timestamp: this.timestamp,
      cwd: this.cwd,
    });
  }
}
