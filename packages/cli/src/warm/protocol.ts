/*
 * The warm socket's protocol: one connection per command, newline-delimited JSON. The server
 * greets every connection at once (`ready`), before reading anything, so a client can tell a
 * live server from a wedged one in bounded time; the client sends one request; the server
 * answers with what the command wrote and its exit code, or declines (the client then runs the
 * command itself: nothing was done).
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

export type WarmReply = { declined: string } | { code: number; stdout: string; stderr: string };

/** The largest request line a server reads: arguments and an environment, never a file's content. */
export const MAX_REQUEST_BYTES = 1024 * 1024;
