import { PassThrough } from 'node:stream';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '@mem/registry';
import { buildProgram } from './main.js';

/*
 * One front door (issue 10, item 1): a command that runs an operation is generated from the
 * registry's CLI declaration, never written by hand beside it. The hand-written commands left
 * are the few the README documents as not operations: they run the log, the projections or a
 * server themselves, not one operation of the registry.
 */
const HAND_WRITTEN = [
  'eval gate',
  'eval forget',
  'eval notes',
  'eval retrieval',
  'eval signatures',
  'log append',
  'log show',
  'mcp',
  'rebuild',
  'serve',
  'vault watch',
];

/** Every runnable command of the tree, as its path (`token mint`): the leaves. */
function leaves(command: Command, at: readonly string[] = []): string[] {
  return command.commands.flatMap((sub) => {
    const path = [...at, sub.name()];
    return sub.commands.length === 0 ? [path.join(' ')] : leaves(sub, path);
  });
}

describe('the CLI command tree', () => {
  const io = {
    stdin: new PassThrough(),
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    env: {},
    cwd: '/',
  };
  const declared = OPERATIONS.flatMap((op) => (op.cli ? [op.cli.command.join(' ')] : []));

  it('is exactly the registry CLI declarations plus the documented hand-written few', () => {
    expect(leaves(buildProgram(io)).sort()).toEqual([...declared, ...HAND_WRITTEN].sort());
  });

  it('says what each command group is for in --help, not "<name> commands"', () => {
    const groups = buildProgram(io).commands.filter((command) => command.commands.length > 0);
    expect(groups.map((group) => group.name())).toEqual(
      expect.arrayContaining(['items', 'review', 'skill', 'vault', 'ref']),
    );
    const bare = groups.filter(
      (group) => group.description() === '' || group.description() === `${group.name()} commands`,
    );
    expect(bare.map((group) => group.name())).toEqual([]);
  });

  it('names every real subcommand of each group in its --help, and none it lacks', () => {
    // `mem review --help` said "scan, list, resolve" after keep/dismiss/supersede replaced
    // resolve: the list after a group description's last ': ' is its subcommands.
    const groups = buildProgram(io).commands.filter((command) => command.commands.length > 0);
    const wrong = groups.flatMap((group) => {
      const text = group.description();
      const at = text.lastIndexOf(': ');
      if (at < 0) return [`${group.name()}: no subcommand list in "${text}"`];
      const named = text
        .slice(at + 2)
        .split(/,\s*/)
        .map((word) => word.replace(/\s*\(.*$/, '').trim())
        .sort();
      const real = group.commands.map((sub) => sub.name()).sort();
      return JSON.stringify(named) === JSON.stringify(real)
        ? []
        : [`${group.name()}: help names [${named.join(', ')}], has [${real.join(', ')}]`];
    });
    expect(wrong).toEqual([]);
  });

  it('runs ingest and synthesize as registry operations, not hand-written commands', () => {
    expect(declared).toEqual(expect.arrayContaining(['ingest', 'synthesize']));
  });
});
