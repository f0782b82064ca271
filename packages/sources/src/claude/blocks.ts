import { arr, isObject, str, type JsonObject } from '../json.js';
import { kindLabel } from '../reader.js';
import type { RecordSink } from '../sink.js';
import { base64Bytes } from '../text/media.js';

/**
 * Text for an Anthropic `image` / `document` block: base64 payloads become a counted placeholder
 * (`[image image/png 68KB]`), a plain-text document keeps its text, a URL source names the URL.
 */
export function blockMedia(sink: RecordSink, block: JsonObject): string {
  const kind = block.type === 'document' ? 'document' : 'image';
  const source = isObject(block.source) ? block.source : {};
  const data = str(source.data);
  if (source.type === 'text' && data !== undefined) return data;
  if (source.type === 'url') return `[${kind} ${str(source.url) ?? ''}]`;
  return sink.media(kind, str(source.media_type), base64Bytes(data?.length ?? 0));
}

/** The text of a `tool_result` block's content: a string, or text / image / tool_reference parts. */
export function toolResultBody(sink: RecordSink, content: unknown): string {
  if (typeof content === 'string') return content;
  const parts: string[] = [];
  for (const part of arr(content)) {
    if (!isObject(part)) continue;
    const type = str(part.type);
    if (type === 'text') parts.push(str(part.text) ?? '');
    else if (type === 'image' || type === 'document') parts.push(blockMedia(sink, part));
    else if (type === 'tool_reference') parts.push(`[tool_reference ${str(part.tool_name) ?? ''}]`);
    else sink.skip(kindLabel('block', type));
  }
  return parts.join('\n');
}
