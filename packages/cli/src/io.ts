import type { Readable, Writable } from 'node:stream';

/** What a command may touch of the outside world; tests pass their own. */
export interface CliIO {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export function processIO(): CliIO {
  return {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
  };
}

export function writeLine(stream: Writable, text: string): void {
  stream.write(`${text}\n`);
}

/**
 * JSON.stringify escapes C0 controls but writes C1 controls and bidi controls raw, which a
 * terminal may act on; written as \u escapes the JSON is the same value.
 */
const JSON_RAW = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/gu;

/** `value` as one line of JSON safe to print: C1 and bidi controls written as \u escapes too. */
export function jsonText(value: unknown): string {
  return escapeJsonControls(String(JSON.stringify(value)));
}

/** JSON text already serialised (a log event as the log writes it) with C1 and bidi controls as \u escapes. */
export function escapeJsonControls(json: string): string {
  return json.replace(
    JSON_RAW,
    (char) => `\\u${char.codePointAt(0)!.toString(16).padStart(4, '0')}`,
  );
}

export function writeJson(stream: Writable, value: unknown): void {
  stream.write(`${jsonText(value)}\n`);
}

export async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
