import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentSha256 } from '@mem/core';

const repo = join(import.meta.dirname, '..');
const readme = readFileSync(join(repo, 'README.md'), 'utf8');

/** The shas of every line of the committed demo vault's notes (a line ends in its block id). */
function demoLineShas(): string[] {
  const dir = join(repo, 'vault', 'demo');
  const shas: string[] = [];
  for (const name of readdirSync(dir).filter((file) => file.endsWith('.md'))) {
    for (const line of readFileSync(join(dir, name), 'utf8').split('\n')) {
      const bullet = /^- (.*) \^([0-9a-f]{8})$/.exec(line);
      if (bullet) shas.push(contentSha256(bullet[1]!));
    }
  }
  return shas;
}

/** Each `npx mem <verb> <sha prefix> … --project demo` (and `--from-line <prefix>`) the README shows. */
function exampleRefs(): { command: string; prefix: string }[] {
  const refs: { command: string; prefix: string }[] = [];
  const pattern =
    /npx mem (forget|supersede|confirm|history|pin|unpin|remember --from-line) ([0-9a-f]{8,64})\b[^\n]*--project demo/g;
  for (const match of readme.matchAll(pattern))
    refs.push({ command: match[1]!, prefix: match[2]! });
  return refs;
}

describe("the README's correction examples", () => {
  it('name lines the committed demo holds, so a reader can run them as written', () => {
    const refs = exampleRefs();
    expect(refs.map((ref) => ref.command)).toEqual(
      expect.arrayContaining(['forget', 'supersede', 'confirm', 'history', 'pin', 'unpin']),
    );
    const shas = demoLineShas();
    const unknown = refs.filter((ref) => !shas.some((sha) => sha.startsWith(ref.prefix)));
    expect(unknown).toEqual([]);
  });

  it('forget and supersede different lines, so the second is not refused as CONFLICT', () => {
    const refs = exampleRefs();
    const forgotten = refs.find((ref) => ref.command === 'forget')!.prefix;
    const superseded = refs.find((ref) => ref.command === 'supersede')!.prefix;
    const kept = refs.filter((ref) => ['confirm', 'pin', 'unpin'].includes(ref.command));
    expect(forgotten.startsWith(superseded) || superseded.startsWith(forgotten)).toBe(false);
    for (const ref of kept) {
      expect(ref.prefix.startsWith(forgotten) || forgotten.startsWith(ref.prefix)).toBe(false);
      expect(ref.prefix.startsWith(superseded) || superseded.startsWith(ref.prefix)).toBe(false);
    }
  });
});
