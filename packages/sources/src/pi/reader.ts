import { arr, compactJson, isObject, num, str, timestampOf, type JsonObject } from '../json.js';
import { kindLabel, type TranscriptReader } from '../reader.js';
import type { RecordOrigin, RecordSink } from '../sink.js';
import { base64Bytes } from '../text/media.js';
import { summaryRecord } from '../text/summary.js';

/** Entry types that hold no conversation (research §2.3): skipped, counted by their type. */
const SKIPPED_TYPES: ReadonlySet<string> = new Set([
  'model_change',
  'thinking_level_change',
  'custom',
  'label',
  'session_info',
]);

/** A user message that is only a slash command (`/mode`, `/`), sent as text by mistake or habit. */
const BARE_SLASH_COMMAND = /^\/[\w:-]{0,40}$/u;

/**
 * Reads pi session JSONL, versions 1–3 (research §2): the header gives the cwd; `message`
 * entries become user / assistant / tool_call / tool_result records (`bashExecution` too);
 * `compaction` and `branch_summary` become summaries; `custom_message` and `custom`-role
 * messages become system records. Source: `pi:<file stem>`; entry: the entry `id` (v2+; v1
 * entries have none, the line number cites them).
 */
export class PiReader implements TranscriptReader {
  private cwd: string | null = null;
  private timestamp: string | null = null;

  constructor(
    private readonly sink: RecordSink,
    /** `pi:<file stem>`. */
    private readonly source: string,
  ) {}

  entry(value: unknown, line: number): void {
    if (!isObject(value)) {
      this.sink.skip('non-object');
      return;
    }
    const message = isObject(value.message) ? value.message : undefined;
    const timestamp = timestampOf(value.timestamp) ?? timestampOf(message?.timestamp);
    if (timestamp !== undefined) this.timestamp = timestamp;
    const type = str(value.type);
    const origin: RecordOrigin = {
      source: this.source,
      line,
      entry: str(value.id),
      timestamp: this.timestamp,
      cwd: this.cwd,
    };
    switch (type) {
      case 'session': {
        // Trigger: a header, normally line 1. A second one (concatenated files) moves the cwd on.
        const cwd = str(value.cwd);
        if (cwd !== undefined && cwd !== '') this.cwd = cwd;
        this.sink.skip('session-header');
        return;
      }
      case 'message':
        if (message === undefined) this.sink.skip('malformed:message');
        else this.message(message, origin);
        return;
      case 'compaction':
      case 'branch_summary': {
        const summary = summaryRecord(str(value.summary) ?? '');
        if (summary === undefined) this.sink.skip('empty');
        else this.sink.emit('summary', summary.text, origin, { sections: summary.sections });
        return;
      }
      case 'custom_message':
        this.sink.emit(
          'system',
          labelled(str(value.customType), this.contentText(value.content)),
          origin,
        );
        return;
      default:
        if (type !== undefined && SKIPPED_TYPES.has(type)) this.sink.skip(type);
        else this.sink.skip(kindLabel('unknown', type));
    }
  }

  finish(): void {
    // pi writes one entry per message: nothing is ever pending.
  }

  /** A pi `AgentMessage` (research §2.4). */
  message(message: JsonObject, origin: RecordOrigin): void {
    const role = str(message.role);
    switch (role) {
      case 'user': {
        const text = this.contentText(message.content);
        if (BARE_SLASH_COMMAND.test(text.trim())) this.sink.skip('slash-command');
        else this.sink.emit('user', text, origin);
        return;
      }
      case 'assistant':
        this.assistant(message, origin);
        return;
      case 'toolResult': {
        const outcome = message.isError === true ? 'error' : 'result';
        this.sink.emit(
          'tool_result',
          `${str(message.toolName) ?? 'tool'} ${outcome}:\n${this.contentText(message.content)}`,
          origin,
        );
        return;
      }
      case 'bashExecution':
        this.sink.emit('tool_result', bashText(message), origin);
        return;
      case 'custom':
      case 'hookMessage':
        this.sink.emit(
          'system',
          labelled(str(message.customType), this.contentText(message.content)),
          origin,
        );
        return;
      case 'compactionSummary':
      case 'branchSummary':
        this.sink.emit(
          'summary',
          str(message.summary) ?? this.contentText(message.content),
          origin,
        );
        return;
      default:
        this.sink.skip(kindLabel('unknown-role', role));
    }
  }

  private assistant(message: JsonObject, origin: RecordOrigin): void {
    // Runs of spoken text and of thinking, in order: each run is one record, so the answer after
    // a thinking block is never read as part of the "[thinking]" record before it.
    const runs: { thinking: boolean; texts: string[] }[] = [];
    const push = (text: string, thinking: boolean): void => {
      if (text.trim() === '') return;
      const last = runs.at(-1);
      if (last?.thinking === thinking) last.texts.push(text);
      else runs.push({ thinking, texts: [text] });
    };
    const calls: string[] = [];
    for (const block of arr(message.content)) {
      if (!isObject(block)) continue;
      const type = str(block.type);
      if (type === 'text') push(str(block.text) ?? '', false);
      else if (type === 'thinking') {
        const thinking = str(block.thinking) ?? '';
        // A redacted thinking block keeps its payload in the signature: nothing readable.
        if (!this.sink.thinking || block.redacted === true) this.sink.skip('thinking');
        else push(`[thinking] ${thinking}`, true);
      } else if (type === 'toolCall')
        calls.push(`${str(block.name) ?? 'tool'} ${compactJson(block.arguments)}`);
      else if (type === 'image') push(this.image(block), false);
      else this.sink.skip(kindLabel('block', type));
    }
    let emitted = 0;
    for (const run of runs)
      if (this.sink.emit('assistant', run.texts.join('\n\n'), origin)) emitted += 1;
    for (const call of calls) if (this.sink.emit('tool_call', call, origin)) emitted += 1;
    const error = str(message.errorMessage);
    if (
      message.stopReason === 'error' &&
      error !== undefined &&
      this.sink.emit('system', `error: ${error}`, origin)
    )
      emitted += 1;
    // Trigger: an aborted turn with `content: []`. Outcome: counted, so every line is accounted for.
    if (emitted === 0 && runs.length === 0 && calls.length === 0) this.sink.skip('empty');
  }

  /** Text of a pi `content`: a string, or text / image blocks (images become counted placeholders). */
  private contentText(content: unknown): string {
    if (typeof content === 'string') return content;
    const parts: string[] = [];
    for (const block of arr(content)) {
      if (!isObject(block)) continue;
      const type = str(block.type);
      if (type === 'text') parts.push(str(block.text) ?? '');
      else if (type === 'image') parts.push(this.image(block));
      else this.sink.skip(kindLabel('block', type));
    }
    return parts.join('\n');
  }

  private image(block: JsonObject): string {
    return this.sink.media('image', str(block.mimeType), base64Bytes(str(block.data)?.length ?? 0));
  }
}

function bashText(message: JsonObject): string {
  const lines = [`$ ${str(message.command) ?? ''}`];
  const output = str(message.output) ?? '';
  if (output.trim() !== '') lines.push(output);
  const exit = num(message.exitCode);
  if (message.cancelled === true) lines.push('(cancelled)');
  else if (exit !== undefined && exit !== 0) lines.push(`(exit ${exit})`);
  return lines.join('\n');
}

function labelled(label: string | undefined, text: string): string {
  return label === undefined ? text : `[${label}] ${text}`;
}
