import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { MemError } from '@mem/core';
import type { CliIO } from './io.js';

/**
 * The UTF-8 text of a file argument: `-` reads stdin to its end, anything else is a path from
 * the working directory. A missing file is NOT_FOUND and an unreadable one INVALID_INPUT, each
 * naming the field and the path, before anything is opened.
 */
export async function readInputFile(io: CliIO, field: string, path: string): Promise<string> {
  if (path === '-') {
    const parts: Buffer[] = [];
    for await (const part of io.stdin)
      parts.push(typeof part === 'string' ? Buffer.from(part) : (part as Buffer));
    return Buffer.concat(parts).toString('utf8');
  }
  try {
    return await readFile(resolve(io.cwd, path), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new MemError(
      code === 'ENOENT' ? 'NOT_FOUND' : 'INVALID_INPUT',
      `${field}: cannot read ${path} (${code ?? (error as Error).message}); give a file or - for stdin`,
      { field, path },
    );
  }
}
