import { arr, compactJson, isObject, str, timestampOf, type JsonObject } from '../json.js';
import { kindLabel, type TranscriptReader } from '../reader.js';
import type { RecordOrigin, RecordSink } from '../sink.js';
import type { UuidSet } from '../uuid-set.js';
import { blockMedia, toolResultBody } from './blocks.js';
import { pastedKind } from '../text/pasted.js';
import { COMPACTION_PROMPT, summaryRecord } from '../text/summary.js';
import { classifyUserText } from './user-text.js';

/** The first user message of a Warmup subagent: Claude Code's cache warm-up, whose replies nobody asked for. */
const WARMUP = 'Warmup';

/** Line types that carry no conversation (research §1.3): skipped, counted under this kind. */
const BOOKKEEPING: Readonly<Record<string, string>> = {
  progress: 'progress',
  'file-history-snapshot': 'file-history-snapshot',
  'queue-operation': 'queue-operation',
  attachment: 'attachment',
  summary: 'title',
  'custom-title': 'title',
  'ai-title': 'title',
  'agent-name': 'session-meta',
  'agent-setting': 'session-meta',
  'last-prompt': 'session-meta',
  'pr-link': 'session-meta',
  mode: 'session-meta',
  'permission-mode': 'session-meta',
  'bridge-session': 'session-meta',
  tag: 'session-meta',
};

/** Tool-use ids remembered to name their results; cleared past this many (a file never needs more). */
const MAX_OPEN_TOOL_CALLS = 10_000;

/** Text blocks of one API response (one `message.id`) waiting for the response's other lines. */
interface PendingText {
  id: string | undefined;
  origin: RecordOrigin;
  texts: string[];
  /** Thinking and spoken text of one response are separate records, never one merged text. */
  thinking: boolean;
}

/**
 * Reads Claude Code JSONL (research §1): user/assistant/system lines become records; one response
 * split over several lines is merged by `message.id`; bookkeeping lines are skipped and counted;
 * a `uuid` already seen in this source (resume, fork, replayed sidechain) is skipped.
 *
 * Provenance source: `claude:<sessionId>` for the main thread, `claude:<sessionId>/agent-<agentId>`
 * for subagent lines (their `sessionId` is the parent's), `claude:<sessionId>/sidechain` for old
 * inline sidechain lines without an `agentId`. Entry: the line's `uuid`, or the `message.id` for
 * merged assistant text.
 */
export class ClaudeReader implements TranscriptReader {
  private cwd: string | null = null;
  private timestamp: string | null = null;
  private pending: PendingText | undefined;
  private readonly toolNames = new Map<string, string>();
  /** Sidechain sources whose first user line was read (a Warmup can only be the first). */
  private readonly sidechainsStarted = new Set<string>();
  /** Sidechain sources found to be Warmup runs: every later line of them is skipped too. */
  private readonly warmups = new Set<string>();

  constructor(
    private readonly sink: RecordSink,
    private readonly seen: UuidSet,
    /** Session id for lines without one: the file stem. */
    private readonly fallbackSession: string,
  ) {}

  entry(value: unknown, line: number): void {
    if (!isObject(value)) {
      this.sink.skip('non-object');
      return;
    }
    const cwd = str(value.cwd);
    if (cwd !== undefined && cwd !== '') this.cwd = cwd;
    const timestamp = timestampOf(value.timestamp);
    if (timestamp !== undefined) this.timestamp = timestamp;
    const type = str(value.type);
    if ((type === 'assistant' || type === 'user') && this.warmup(value)) return;
    if (type === 'assistant') this.assistant(value, line);
    else if (type === 'user') this.user(value, line);
    else if (type === 'system') this.system(value, line);
    else if (type !== undefined && BOOKKEEPING[type] !== undefined)
      this.sink.skip(BOOKKEEPING[type]);
    else this.sink.skip(kindLabel('unknown', type));
  }

  finish(): void {
    this.flush();
  }

  private assistant(value: JsonObject, line: number): void {
    const message = value.message;
    if (!isObject(message)) {
      this.sink.skip('malformed:assistant');
      return;
    }
    if (this.duplicate(value)) return;
    const origin = this.origin(value, line);
    const blocks =
      typeof message.content === 'string'
        ? [{ type: 'text', text: message.content }]
        : arr(message.content);
    if (isCompactionRun(value)) {
      this.compactionReply(blocks, origin);
      return;
    }
    if (value.isApiErrorMessage === true || message.model === '<synthetic>') {
      // Trigger: an error the CLI wrote in the model's place. Outcome: a system notice, not model prose.
      this.flush();
      this.sink.retyped('api-error');
      this.sink.emit(
        'system',
        blocks.map((b) => (isObject(b) ? (str(b.text) ?? '') : '')).join('\n'),
        origin,
      );
      return;
    }
    const id = str(message.id);
    if (
      this.pending !== undefined &&
      (this.pending.id === undefined ||
        this.pending.id !== id ||
        this.pending.origin.source !== origin.source)
    ) {
      this.flush();
    }
    for (const block of blocks) {
      if (!isObject(block)) continue;
      const type = str(block.type);
      if (type === 'text') this.addText(id, origin, str(block.text));
      else if (type === 'thinking') {
        if (this.sink.thinking)
          this.addText(id, origin, prefixed('[thinking] ', str(block.thinking)), true);
        else this.sink.skip('thinking');
      } else if (type === 'redacted_thinking') this.sink.skip('redacted-thinking');
      else if (type === 'tool_use') this.toolUse(block, origin);
      else if (type === 'image' || type === 'document')
        this.addText(id, origin, blockMedia(this.sink, block));
      else this.sink.skip(kindLabel('block', type));
    }
    if (this.pending?.id === undefined) this.flush();
  }

  /** A compaction run's answer is the summary the main thread will continue from: kept as one. */
  private compactionReply(blocks: readonly unknown[], origin: RecordOrigin): void {
    this.flush();
    const text = blocks
      .map((b) => (isObject(b) && str(b.type) === 'text' ? (str(b.text) ?? '') : ''))
      .join('\n');
    this.emitSummary(text, origin);
  }

  private emitSummary(text: string, origin: RecordOrigin): void {
    const summary = summaryRecord(text);
    if (summary === undefined) this.sink.skip('empty');
    else this.sink.emit('summary', summary.text, origin, { sections: summary.sections });
  }

  /**
   * True (and counted) for a line of a Warmup subagent: a sidechain whose first user message is
   * exactly `Warmup`. The file is counted once under `filesSkipped.warmup-agent`, its lines `warmup`.
   */
  private warmup(value: JsonObject): boolean {
    if (value.isSidechain !== true) return false;
    const source = this.sourceOf(value);
    if (this.warmups.has(source)) {
      this.sink.skip('warmup');
      return true;
    }
    if (str(value.type) !== 'user' || this.sidechainsStarted.has(source)) return false;
    this.sidechainsStarted.add(source);
    const message = isObject(value.message) ? value.message : undefined;
    const content = message?.content;
    const text =
      typeof content === 'string'
        ? content
        : arr(content)
            .map((b) => (isObject(b) && str(b.type) === 'text' ? (str(b.text) ?? '') : ''))
            .join('');
    if (text.trim() !== WARMUP) return false;
    this.warmups.add(source);
    this.sink.skipFile('warmup-agent');
    this.sink.skip('warmup');
    return true;
  }

  private addText(
    id: string | undefined,
    origin: RecordOrigin,
    text: string | undefined,
    thinking = false,
  ): void {
    if (text === undefined || text.trim() === '') return;
    // Trigger: spoken text after a thinking block (or the reverse) in one response. Outcome: the
    // pending record is emitted first, so "[thinking]" never hides the answer that follows it.
    if (this.pending !== undefined && this.pending.thinking !== thinking) this.flush();
    this.pending ??= { id, origin: { ...origin, entry: id ?? origin.entry }, texts: [], thinking };
    this.pending.texts.push(text);
  }

  private toolUse(block: JsonObject, origin: RecordOrigin): void {
    this.flush();
    const name = str(block.name) ?? 'tool';
    const id = str(block.id);
    if (id !== undefined) {
      if (this.toolNames.size >= MAX_OPEN_TOOL_CALLS) this.toolNames.clear();
      this.toolNames.set(id, name);
    }
    this.sink.emit('tool_call', `${name} ${compactJson(block.input)}`, origin);
  }

  private user(value: JsonObject, line: number): void {
    const message = value.message;
    if (!isObject(message)) {
      this.sink.skip('malformed:user');
      return;
    }
    if (this.duplicate(value)) return;
    this.flush();
    const origin = this.origin(value, line);
    const flags = {
      isMeta: value.isMeta === true,
      isCompactSummary: value.isCompactSummary === true,
      compactionRun: isCompactionRun(value),
    };
    if (typeof message.content === 'string') {
      this.userText(message.content, flags, origin);
      return;
    }
    const texts: string[] = [];
    for (const block of arr(message.content)) {
      if (!isObject(block)) continue;
      const type = str(block.type);
      if (type === 'tool_result') this.toolResult(block, origin);
      else if (type === 'text') texts.push(str(block.text) ?? '');
      else if (type === 'image' || type === 'document') texts.push(blockMedia(this.sink, block));
      else this.sink.skip(kindLabel('block', type));
    }
    if (texts.length > 0) this.userText(texts.join('\n\n'), flags, origin);
  }

  private userText(
    text: string,
    flags: { isMeta: boolean; isCompactSummary: boolean; compactionRun: boolean },
    origin: RecordOrigin,
  ): void {
    if (flags.compactionRun && COMPACTION_PROMPT.test(text.trim())) {
      this.sink.skip('compaction-prompt');
      return;
    }
    const verdict = classifyUserText(text, flags);
    if ('skip' in verdict) this.sink.skip(verdict.skip);
    else if (verdict.role === 'summary') this.emitSummary(verdict.text, origin);
    else {
      if (verdict.retyped !== undefined) this.sink.retyped(verdict.retyped);
      this.sink.emit(
        verdict.role,
        verdict.text,
        origin,
        verdict.role === 'user' ? { pasted: pastedKind(verdict.text) } : {},
      );
    }
  }

  private toolResult(block: JsonObject, origin: RecordOrigin): void {
    const id = str(block.tool_use_id);
    const name = id === undefined ? undefined : this.toolNames.get(id);
    if (id !== undefined) this.toolNames.delete(id);
    const body = toolResultBody(this.sink, block.content);
    const outcome = block.is_error === true ? 'error' : 'result';
    this.sink.emit('tool_result', `${name ?? 'tool'} ${outcome}:\n${body}`, origin);
  }

  private system(value: JsonObject, line: number): void {
    const subtype = str(value.subtype);
    const content = str(value.content);
    if (subtype === 'away_summary' && content !== undefined) {
      if (this.duplicate(value)) return;
      this.flush();
      this.sink.emit('summary', content, this.origin(value, line));
      return;
    }
    this.sink.skip(kindLabel('system', subtype));
  }

  /** True (and counted) when this line's uuid was already read in this source. */
  private duplicate(value: JsonObject): boolean {
    const uuid = str(value.uuid);
    if (uuid === undefined || !this.seen.seenBefore(uuid)) return false;
    this.sink.duplicateUuid(value.isSidechain === true ? 'sidechain-dup' : 'duplicate-uuid');
    return true;
  }

  private flush(): void {
    const pending = this.pending;
    if (pending === undefined) return;
    this.pending = undefined;
    this.sink.emit('assistant', pending.texts.join('\n\n'), pending.origin);
  }

  private origin(value: JsonObject, line: number): RecordOrigin {
    return {
      source: this.sourceOf(value),
      line,
      entry: str(value.uuid),
      timestamp: this.timestamp,
      cwd: this.cwd,
    };
  }

  private sourceOf(value: JsonObject): string {
    const session = str(value.sessionId) ?? this.fallbackSession;
    const agent = str(value.agentId);
    if (agent !== undefined && agent !== '') return `claude:${session}/agent-${agent}`;
    if (value.isSidechain === true) return `claude:${session}/sidechain`;
    return `claude:${session}`;
  }
}

/** A line of a compaction run (`agentId: acompact-…`), whatever its file is called. */
function isCompactionRun(value: JsonObject): boolean {
  return str(value.agentId)?.startsWith('acompact-') === true;
}

function prefixed(prefix: string, text: string | undefined): string | undefined {
  return text === undefined || text.trim() === '' ? undefined : `${prefix}${text}`;
}
