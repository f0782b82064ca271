import { arr, compactJson, isObject, num, str, timestampOf, type JsonObject } from '../json.js';
import { kindLabel, type TranscriptReader } from '../reader.js';
import type { RecordOrigin, RecordSink } from '../sink.js';
import { summaryRecord } from '../text/summary.js';
import { pastedKind } from '../text/pasted.js';

/**
 * `event_msg` payloads: the UI's event stream. Every one is skipped, counted as `event:<type>`:
 * `user_message` / `agent_message` / `agent_reasoning` repeat the `response_item` messages, and
 * `exec_command_end` / `patch_apply_end` repeat the `function_call_output` the model saw. The
 * response items win because they are what the model read and wrote, in order, with the tool
 * calls between them; the events are an echo for the terminal.
 */
const KNOWN_EVENTS: ReadonlySet<string> = new Set([
  'user_message',
  'agent_message',
  'agent_reasoning',
  'agent_reasoning_raw_content',
  'token_count',
  'exec_command_begin',
  'exec_command_end',
  'patch_apply_begin',
  'patch_apply_end',
  'task_started',
  'task_complete',
  'turn_aborted',
  'web_search_begin',
  'web_search_end',
  'mcp_tool_call_begin',
  'mcp_tool_call_end',
  'turn_diff',
  'entered_review_mode',
  'exited_review_mode',
]);

/** Bare response items: the old (pre-`session_meta`) rollout format wrote them without the envelope. */
const RESPONSE_ITEM_TYPES: ReadonlySet<string> = new Set([
  'message',
  'function_call',
  'function_call_output',
  'custom_tool_call',
  'custom_tool_call_output',
  'local_shell_call',
  'reasoning',
  'web_search_call',
]);

/** User-role messages the CLI writes itself: the environment block and AGENTS.md / user instructions. */
const HARNESS_USER_TEXT: ReadonlyArray<[RegExp, string]> = [
  [/^<environment_context>/u, 'environment-context'],
  [/^<user_instructions>/u, 'user-instructions'],
  [/^# AGENTS\.md instructions/u, 'user-instructions'],
  [/^<user_shell_command>/u, 'user-shell-command'],
];

/** Call ids remembered to name their outputs; cleared past this many (a file never needs more). */
const MAX_OPEN_CALLS = 10_000;

/**
 * Reads Codex CLI rollout JSONL (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`): each line is
 * `{timestamp, type, payload}`. `session_meta` names the session and its cwd, `turn_context`
 * moves the cwd; `response_item` messages become user / assistant records, `function_call`,
 * `custom_tool_call`, `local_shell_call` and `web_search_call` tool calls, their `*_output`
 * tool results (named by `call_id`), `reasoning` its readable summary as "[thinking] …" (the
 * encrypted content is never read); `compacted` a summary. Source `codex:<session id>` (the
 * file stem until `session_meta` says); no entry ids exist, the line cites a record.
 */
export class CodexReader implements TranscriptReader {
  private cwd: string | null = null;
  private timestamp: string | null = null;
  private source: string;
  private readonly calls = new Map<string, string>();

  constructor(
    private readonly sink: RecordSink,
    fallbackSession: string,
  ) {
    this.source = `codex:${fallbackSession}`;
  }

  entry(value: unknown, line: number): void {
    if (!isObject(value)) {
      this.sink.skip('non-object');
      return;
    }
    const timestamp = timestampOf(value.timestamp);
    if (timestamp !== undefined) this.timestamp = timestamp;
    const type = str(value.type);
    const payload = isObject(value.payload) ? value.payload : undefined;
    if (payload === undefined && type !== undefined && RESPONSE_ITEM_TYPES.has(type)) {
      this.responseItem(value, line);
      return;
    }
    switch (type) {
      case 'session_meta':
        this.sessionMeta(payload);
        return;
      case 'turn_context':
        this.setCwd(payload?.cwd);
        this.sink.skip('turn-context');
        return;
      case 'response_item':
        if (payload === undefined) this.sink.skip('malformed:response_item');
        else this.responseItem(payload, line);
        return;
      case 'event_msg': {
        const event = str(payload?.type);
        this.sink.skip(
          event !== undefined && KNOWN_EVENTS.has(event)
            ? `event:${event}`
            : kindLabel('unknown:event_msg', event),
        );
        return;
      }
      case 'compacted':
        this.emitSummary(str(payload?.message) ?? '', line);
        return;
      default:
        this.sink.skip(kindLabel('unknown', type));
    }
  }

  finish(): void {
    // One line is one item: nothing is ever pending.
  }

  private sessionMeta(payload: JsonObject | undefined): void {
    const id = str(payload?.id);
    if (id !== undefined && id !== '') this.source = `codex:${id}`;
    this.setCwd(payload?.cwd);
    this.sink.skip('session-meta');
  }

  private setCwd(value: unknown): void {
    const cwd = str(value);
    if (cwd !== undefined && cwd !== '') this.cwd = cwd;
  }

  private responseItem(item: JsonObject, line: number): void {
    const origin = this.origin(line);
    const type = str(item.type);
    switch (type) {
      case 'message':
        this.message(item, origin);
        return;
      case 'function_call':
        this.call(item, str(item.name) ?? 'tool', argumentsText(item.arguments), origin);
        return;
      case 'custom_tool_call':
        this.call(
          item,
          str(item.name) ?? 'tool',
          str(item.input) ?? compactJson(item.input),
          origin,
        );
        return;
      case 'local_shell_call':
        this.call(item, 'local_shell', compactJson(item.action), origin);
        return;
      case 'web_search_call':
        this.call(item, 'web_search', compactJson(item.action), origin);
        return;
      case 'function_call_output':
      case 'custom_tool_call_output':
        this.output(item, origin);
        return;
      case 'reasoning':
        this.reasoning(item, origin);
        return;
      default:
        this.sink.skip(kindLabel('unknown:response_item', type));
    }
  }

  private message(item: JsonObject, origin: RecordOrigin): void {
    const role = str(item.role);
    const text = contentText(item.content);
    if (role === 'assistant') {
      this.sink.emit('assistant', text, origin);
      return;
    }
    if (role !== 'user') {
      // Developer / system messages are the CLI's instructions to the model, never the user.
      this.sink.skip(kindLabel('role', role));
      return;
    }
    const trimmed = text.trim();
    const harness = HARNESS_USER_TEXT.find(([pattern]) => pattern.test(trimmed));
    if (harness !== undefined) {
      this.sink.skip(harness[1]);
      return;
    }
    this.sink.emit('user', text, origin, { pasted: pastedKind(trimmed) });
  }

  private call(item: JsonObject, name: string, input: string, origin: RecordOrigin): void {
    const id = str(item.call_id) ?? str(item.id);
    if (id !== undefined) {
      if (this.calls.size >= MAX_OPEN_CALLS) this.calls.clear();
      this.calls.set(id, name);
    }
    this.sink.emit('tool_call', input === '' ? name : `${name} ${input}`, origin);
  }

  private output(item: JsonObject, origin: RecordOrigin): void {
    const id = str(item.call_id);
    const name = id === undefined ? undefined : this.calls.get(id);
    if (id !== undefined) this.calls.delete(id);
    const { body, failed } = outputBody(item.output);
    this.sink.emit(
      'tool_result',
      `${name ?? 'tool'} ${failed ? 'error' : 'result'}:\n${body}`,
      origin,
    );
  }

  private reasoning(item: JsonObject, origin: RecordOrigin): void {
    const summary = arr(item.summary)
      .map((part) => (isObject(part) ? (str(part.text) ?? '') : ''))
      .filter((t) => t.trim() !== '')
      .join('\n\n');
    if (!this.sink.thinking || summary === '') this.sink.skip('reasoning');
    else this.sink.emit('assistant', `[thinking] ${summary}`, origin);
  }

  private emitSummary(text: string, line: number): void {
    const summary = summaryRecord(text);
    if (summary === undefined) this.sink.skip('empty');
    else this.sink.emit('summary', summary.text, this.origin(line), { sections: summary.sections });
  }

  private origin(line: number): RecordOrigin {
    return { source: this.source, line, timestamp: this.timestamp, cwd: this.cwd };
  }
}

/** Text of message content blocks (`input_text`, `output_text`; images become a marker). */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  const parts: string[] = [];
  for (const block of arr(content)) {
    if (!isObject(block)) continue;
    const text = str(block.text);
    if (text !== undefined) parts.push(text);
    else if (str(block.type) === 'input_image') parts.push('[image]');
  }
  return parts.join('\n');
}

/** `function_call.arguments` is a JSON string: compacted when it parses, kept as written when not. */
function argumentsText(value: unknown): string {
  if (typeof value !== 'string') return compactJson(value);
  try {
    return compactJson(JSON.parse(value));
  } catch {
    return value;
  }
}

/**
 * A tool output: a plain string, a JSON string `{output, metadata: {exit_code}}` (the shell tool),
 * or an object `{content, success}`. A non-zero exit code or `success: false` marks it failed.
 */
function outputBody(value: unknown): { body: string; failed: boolean } {
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      return { body: value, failed: false };
    }
  }
  if (!isObject(parsed))
    return { body: typeof value === 'string' ? value : compactJson(value), failed: false };
  const body = str(parsed.output) ?? str(parsed.content) ?? compactJson(parsed);
  const metadata = isObject(parsed.metadata) ? parsed.metadata : undefined;
  const exit = num(metadata?.exit_code);
  const failed = (exit !== undefined && exit !== 0) || parsed.success === false;
  return { body: exit !== undefined && exit !== 0 ? `${body}\n(exit ${exit})` : body, failed };
}
