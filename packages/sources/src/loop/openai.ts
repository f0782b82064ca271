import { arr, compactJson, isObject, str, type JsonObject } from '../json.js';
import { kindLabel } from '../reader.js';
import type { RecordOrigin, RecordSink } from '../sink.js';
import { base64Bytes } from '../text/media.js';

/**
 * One OpenAI-style chat message (`{role, content, tool_calls?, tool_call_id?}`), as a loop script
 * that talks to `/v1/chat/completions` would log it: system/developer → system, user → user,
 * assistant → assistant (+ one tool_call per `tool_calls` entry), tool/function → tool_result.
 */
export function openAiMessage(sink: RecordSink, message: JsonObject, origin: RecordOrigin): void {
  const role = str(message.role);
  const text = contentText(sink, message.content);
  switch (role) {
    case 'system':
    case 'developer':
      sink.emit('system', text, origin);
      return;
    case 'user':
      sink.emit('user', text, origin);
      return;
    case 'assistant': {
      const reasoning = str(message.reasoning_content) ?? str(message.reasoning);
      const parts = [
        sink.thinking && reasoning !== undefined && reasoning.trim() !== ''
          ? `[thinking] ${reasoning}`
          : '',
        text,
      ];
      const prose = parts.filter((p) => p.trim() !== '').join('\n\n');
      let emitted = prose !== '' && sink.emit('assistant', prose, origin);
      const calls = [
        ...arr(message.tool_calls),
        ...(isObject(message.function_call) ? [{ function: message.function_call }] : []),
      ];
      for (const call of calls) {
        const fn = isObject(call) && isObject(call.function) ? call.function : {};
        emitted =
          sink.emit(
            'tool_call',
            `${str(fn.name) ?? 'tool'} ${compactJson(fn.arguments)}`,
            origin,
          ) || emitted;
      }
      if (!emitted && prose === '' && calls.length === 0) sink.skip('empty');
      return;
    }
    case 'tool':
    case 'function':
      sink.emit('tool_result', `${str(message.name) ?? 'tool'} result:\n${text}`, origin);
      return;
    default:
      sink.skip(kindLabel('unknown-role', role));
  }
}

function contentText(sink: RecordSink, content: unknown): string {
  if (typeof content === 'string') return content;
  const parts: string[] = [];
  for (const part of arr(content)) {
    if (!isObject(part)) continue;
    if (part.type === 'text' || part.type === 'input_text' || part.type === 'output_text')
      parts.push(str(part.text) ?? '');
    else if (part.type === 'image_url') parts.push(imageUrl(sink, part));
  }
  return parts.join('\n');
}

function imageUrl(sink: RecordSink, part: JsonObject): string {
  const url = isObject(part.image_url)
    ? (str(part.image_url.url) ?? '')
    : (str(part.image_url) ?? '');
  const data = /^data:([^;,]+);base64,/u.exec(url);
  if (data === null) return `[image ${url}]`;
  return sink.media('image', data[1], base64Bytes(url.length - data[0].length));
}
