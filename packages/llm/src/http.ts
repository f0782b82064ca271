import { MemError } from '@mem/core';
import type { ModelEndpoint } from './endpoint.js';

export interface PostResult {
  body: unknown;
  /** Wall time of the successful attempt. */
  latencyMs: number;
  attempts: number;
}

const RETRYABLE = (status: number) => status === 429 || status >= 500;

/**
 * POSTs JSON to an OpenAI-compatible route with a per-attempt timeout and bounded retries
 * with backoff on 429, 5xx, network errors and timeouts (Retry-After honoured). Other 4xx
 * fail at once. Failure after the last attempt is MODEL_FAILED (or TIMEOUT), never a guess.
 */
export async function postJson(
  endpoint: ModelEndpoint,
  payload: unknown,
  sleep: (ms: number) => Promise<void> = defaultSleep,
): Promise<PostResult> {
  const retries = endpoint.retries ?? 3;
  const timeoutMs = endpoint.timeoutMs ?? 60_000;
  let backoff = endpoint.backoffMs ?? 250;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json',
  };
  if (endpoint.key) {
    headers['apikey'] = endpoint.key;
    headers['authorization'] = `Bearer ${endpoint.key}`;
  }
  let lastError: MemError | null = null;
  for (let attempt = 1; attempt <= retries + 1; attempt++) {
    const started = performance.now();
    let wait = backoff;
    try {
      const response = await fetch(endpoint.url, {
        method: 'POST',
        headers,
        body: JSON.stringify(payload),
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await response.text();
      if (response.ok) {
        try {
          return {
            body: JSON.parse(text),
            latencyMs: performance.now() - started,
            attempts: attempt,
          };
        } catch {
          lastError = new MemError(
            'MODEL_FAILED',
            `${endpoint.url} answered ${response.status} with a body that is not JSON`,
            { url: endpoint.url, status: response.status },
          );
        }
      } else {
        lastError = new MemError(
          'MODEL_FAILED',
          `${endpoint.url} answered ${response.status}: ${text.slice(0, 200)}`,
          { url: endpoint.url, status: response.status },
        );
        if (!RETRYABLE(response.status)) throw lastError;
        const retryAfter = Number(response.headers.get('retry-after'));
        if (Number.isFinite(retryAfter) && retryAfter > 0)
          wait = Math.min(retryAfter * 1000, 30_000);
      }
    } catch (error) {
      if (
        error instanceof MemError &&
        error.code === 'MODEL_FAILED' &&
        error.details['status'] !== undefined &&
        !RETRYABLE(error.details['status'] as number)
      )
        throw error;
      const name = (error as Error).name;
      lastError =
        name === 'TimeoutError' || name === 'AbortError'
          ? new MemError('TIMEOUT', `${endpoint.url} did not answer within ${timeoutMs} ms`, {
              url: endpoint.url,
              timeoutMs,
            })
          : error instanceof MemError
            ? error
            : new MemError(
                'MODEL_FAILED',
                `${endpoint.url}: ${(error as Error).message}`,
                { url: endpoint.url },
                { cause: error },
              );
    }
    if (attempt <= retries) {
      await sleep(wait);
      backoff *= 2;
    }
  }
  throw new MemError(
    lastError!.code,
    `${lastError!.message} (after ${retries + 1} attempts)`,
    { ...lastError!.details, attempts: retries + 1 },
    { cause: lastError },
  );
}

function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
