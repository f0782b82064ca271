import { CommanderError } from 'commander';
import { hasErrorCode, isMemError, terminalSafe } from '@mem/core';
import { jsonText } from './io.js';

/** Exit codes of `mem` (DESIGN §8). */
export const EXIT = { ok: 0, runtime: 1, usage: 2, verification: 3 } as const;

/** A flag or argument the command cannot use. Exit 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Thrown by a command whose check failed after printing its report. Exit 3. */
export class VerificationFailed extends Error {
  override name = 'VerificationFailed';
}

/**
 * The codes that say the caller's input was refused (a flag, an argument, a file or stdin it
 * gave): a usage error, exit 2, from every command, whichever part of mem threw it. Why by
 * code: `mem log append` and `mem eval gate` exited 1 on the INVALID_INPUT a registry command
 * exits 2 on. A refusal that depends on what the data root holds (NOT_FOUND, CONFLICT,
 * FORGOTTEN, BUDGET_EXCEEDED) is a runtime error, exit 1.
 */
const INPUT_REFUSED: ReadonlySet<string> = new Set(['INVALID_INPUT', 'INVALID_PROJECT']);

export function exitCodeFor(error: unknown): number {
  if (error instanceof VerificationFailed) return EXIT.verification;
  // A broken chain is a failed verification wherever it is found (an append refused after a tampered tail).
  if (hasErrorCode(error, 'CHAIN_BROKEN')) return EXIT.verification;
  if (error instanceof UsageError) return EXIT.usage;
  if (isMemError(error) && INPUT_REFUSED.has(error.code)) return EXIT.usage;
  if (error instanceof CommanderError) {
    return error.code === 'commander.helpDisplayed' ||
      error.code === 'commander.version' ||
      error.exitCode === 0
      ? EXIT.ok
      : EXIT.usage;
  }
  return EXIT.runtime;
}

/**
 * The one line (or JSON object) a failed command leaves on stderr, safe to print: an error names
 * what it refused, which may be stored or untrusted text, so control and bidi characters are
 * escaped here, in text (terminalSafe) or as JSON (jsonText: a terminal-safe pass over JSON would
 * write `\x85`, which is no JSON escape).
 */
export function describeError(error: unknown, json: boolean): string | null {
  const raw = rawDescription(error, json);
  if (raw === null) return null;
  return typeof raw === 'string' ? terminalSafe(raw) : jsonText(raw);
}

function rawDescription(error: unknown, json: boolean): string | { error: unknown } | null {
  if (error instanceof CommanderError) return null; // commander already printed it
  if (error instanceof VerificationFailed) return null; // the report was printed
  // A registry operation's refused input: a usage error (exit 2) that keeps its error code.
  const cause = error instanceof UsageError ? error.cause : undefined;
  if (isMemError(cause))
    return json ? { error: cause.toJSON() } : `mem: ${cause.message} [${cause.code}]`;
  if (json) {
    if (isMemError(error)) return { error: error.toJSON() };
    return {
      error: {
        code: error instanceof UsageError ? 'INVALID_INPUT' : 'INTERNAL',
        message: (error as Error).message,
      },
    };
  }
  if (isMemError(error)) return `mem: ${error.message} [${error.code}]`;
  // A flag the command refused itself (`--port`, `--from-seq`, `--only`): the same code a
  // registry operation's refused input carries, so every bad input reads alike.
  if (error instanceof UsageError) return `mem: ${error.message} [INVALID_INPUT]`;
  return `mem: ${(error as Error).message ?? String(error)}`;
}
