import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { MemError, unreadableFileCode } from '@mem/core';
import type { CliIO } from './io.js';

/**
 * The UTF-8 text of a file argument: `-` reads stdin to its end, anything else is a path from
 * the working directory. A missing file is NOT_FOUND and an unreadable one INVALID_INPUT, each
 * naming the field and the path, before anything is opened; so is an empty one (or stdin with
 * nothing piped in), said as such and how to give the text, not as "at least 1 character".
 */
export async function readInputFile(io: CliIO, field: string, path: string): Promise<string> {
  const text = path === '-' ? await readStdin(io) : await readPath(io, field, path);
  if (text.trim() === '')
    throw new MemError(
      'INVALID_INPUT',
      path === '-'
        ? `${field}: stdin is empty; pipe the text in (\`- < FILE\`, \`CMD | mem … -\`) or give the file's path instead of -`
        : `${field}: ${path} is empty; give a file that holds the text, or - and pipe it in`,
      { field, path },
    );
  return text;
}

async function readStdin(io: CliIO): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of io.stdin)
    parts.push(typeof part === 'string' ? Buffer.from(part) : (part as Buffer));
  return Buffer.concat(parts).toString('utf8');
}

/** One rule for every file the user names (core's unreadableFileCode), re-exported for the commands. */
export { unreadableFileCode };

async function readPath(io: CliIO, field: string, path: string): Promise<string> {
  try {
    return await readFile(resolve(io.cwd, path), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new MemError(
      unreadableFileCode(error),
      `${field}: cannot read ${path} (${code ?? (error as Error).message}); give a file or - for stdin`,
      { field, path },
    );
  }
}
