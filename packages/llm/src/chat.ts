import { MemError } from '@mem/core';
import type { ModelEndpoint } from './endpoint.js';
import { postJson } from './http.js';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatOptions {
  temperature?: number;
  maxTokens?: number;
}

export interface ChatResult {
  text: string;
  latencyMs: number;
  attempts: number;
}

/** One `/v1/chat/completions` call; the text of the first choice. */
export async function chatCompletion(
  endpoint: ModelEndpoint,
  messages: readonly ChatMessage[],
  options: ChatOptions = {},
): Promise<ChatResult> {
  const { body, latencyMs, attempts } = await postJson(endpoint, {
    model: endpoint.model,
    messages,
    temperature: options.temperature ?? 0,
    ...(options.maxTokens !== undefined ? { max_tokens: options.maxTokens } : {}),
    stream: false,
  });
  const text = (body as { choices?: { message?: { content?: unknown } }[] }).choices?.[0]?.message
    ?.content;
  if (typeof text !== 'string') {
    throw new MemError(
      'MODEL_FAILED',
      `${endpoint.url} answered without choices[0].message.content`,
      { url: endpoint.url },
    );
  }
  return { text, latencyMs, attempts };
}
