/*
 * The warm socket's protocol: one connection per request, newline-delimited JSON. The server
 * greets every connection at once (`ready`), before reading anything, so a client can tell a
 * live server from a wedged one in bounded time; the client sends one request; the server
 * answers, or declines (the client then runs it itself: nothing was done). Two requests: a CLI
 * command (answered with what it wrote and its exit code), and one registry read for `mem mcp`
 * (answered with the operation's output, or the caller error it met).
 */

/** The server's greeting, the first line on every connection. */
export const READY = { ready: 1 } as const;

/** One command, as the caller's process would run it. */
export interface WarmRequest {
  /** process.argv after the script. */
  args: string[];
  cwd: string;
  env: Record<string, string>;
}

/**
 * One registry read for `mem mcp`, run as the caller `credential` stands for on the `mcp`
 * surface, as the process would run it itself; `env` is the caller's, for the same check of
 * settings a CLI command gets.
 */
export interface WarmInvoke {
  invoke: { operation: string; input: unknown; credential: string | null };
  env: Record<string, string>;
}

/**
 * `mem mcp` holding the embedded PGlite asks whether this server would answer its reads of the
 * vectors (its settings are the server's): if so it hands the PGlite over and forwards them.
 * Answered `{accepted: true}` or declined as an invoke would be.
 */
export interface WarmProbe {
  probe: { env: Record<string, string> };
}

export type WarmProbeReply = WarmDecline | { accepted: true };

/** A caller error as every surface reports it: `{code, message, details?}`. */
export interface WarmError {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/**
 * Why a request was declined; `settings` names (never the values of) the caller's settings that
 * differ from the server's, when that is why: such a caller is declined on every request.
 */
export interface WarmDecline {
  declined: string;
  settings?: string[];
}

export type WarmInvokeReply = WarmDecline | { output: unknown } | { error: WarmError };

export type WarmReply = WarmDecline | { code: number; stdout: string; stderr: string };

/** The largest request line a server reads, in bytes: arguments and an environment, never a file's content. */
export const MAX_REQUEST_BYTES = 1024 * 1024;

/**
 * How long a server waits for a connection's request line once it has greeted it. A client
 * writes its line as soon as it reads the greeting; a connection still without one is a client
 * that hung or never meant to ask, and is closed so it holds no memory.
 */
export const REQUEST_LINE_MS = 5_000;

/** The most connections a server holds at once; more are closed at once (their clients run in-process). */
export const MAX_CONNECTIONS = 64;
