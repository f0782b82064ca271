import { MemError, type MemConfig } from '@mem/core';

/** An OpenAI-compatible endpoint: Ollama, vLLM, llama.cpp, TEI, or the real thing. */
export interface ModelEndpoint {
  /** Full URL of the route (e.g. http://localhost:11434/v1/chat/completions). */
  url: string;
  model: string;
  /** Sent as both `apikey` and `Authorization: Bearer` (gateways differ on which they read). */
  key?: string;
  /** Per-attempt timeout. Default 60 s. */
  timeoutMs?: number;
  /** Retries after the first attempt on 429, 5xx, network errors and timeouts. Default 3. */
  retries?: number;
  /** First backoff; doubles per retry unless the server sends Retry-After. Default 250 ms. */
  backoffMs?: number;
}

/**
 * Accepts a base URL (`http://host:11434`, `http://host/v1`) or the full route, and returns the
 * full route: `<base>/v1/<route>`.
 */
export function routeUrl(
  base: string,
  route: 'chat/completions' | 'embeddings' | 'rerank',
): string {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new MemError(
      'CONFIG_INVALID',
      `invalid endpoint URL ${JSON.stringify(base)}: expected http(s)://host[:port][/v1]`,
      { url: base },
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new MemError(
      'CONFIG_INVALID',
      `invalid endpoint URL ${JSON.stringify(base)}: expected http or https`,
      { url: base },
    );
  }
  const path = url.pathname.replace(/\/+$/, '');
  if (path.endsWith(`/${route}`)) return url.toString();
  url.pathname = path.endsWith('/v1') ? `${path}/${route}` : `${path}/v1/${route}`;
  return url.toString();
}

/** The chat endpoint configured by MEM_LLM_URL / MEM_LLM_MODEL / MEM_LLM_KEY, or null when unset. */
export function chatEndpointFromEnv(config: MemConfig): ModelEndpoint | null {
  const base = config.MEM_LLM_URL;
  if (!base) return null;
  const model = config.MEM_LLM_MODEL;
  if (!model)
    throw new MemError(
      'CONFIG_INVALID',
      'MEM_LLM_URL is set but MEM_LLM_MODEL is not: name the model to call',
      { variable: 'MEM_LLM_MODEL' },
    );
  const key = config.MEM_LLM_KEY;
  return { url: routeUrl(base, 'chat/completions'), model, ...(key ? { key } : {}) };
}
