import { Command } from 'commander';
import { isMemError, projectNameSchema } from '@mem/core';
import type { AnyOperation, CliOption } from '@mem/registry';
import { type GlobalOptions } from './context.js';
import { UsageError } from './exit.js';
import { writeJson, writeLine, type CliIO } from './io.js';
import { localPrincipal, openCliRegistry } from './open-registry.js';

/** A registry operation's input was refused: exit 2, and `--json` still shows its error code. */
export class RegistryUsageError extends UsageError {}

function parseOption(option: CliOption, value: string): unknown {
  if (option.parse === 'list-or-star' && value.trim() === '*') return '*';
  if (option.parse === 'list' || option.parse === 'list-or-star') return value.split(',').map((v) => v.trim()).filter((v) => v !== '');
  return value;
}

const GROUPS: Record<string, string> = {
  principal: 'people who can be members of projects and hold tokens (runs locally, as the root of trust)',
  project: 'projects: register, list, status, members (runs locally, as the root of trust)',
  token: 'tokens for mem serve and mem mcp: mint (the secret is shown once), list, revoke',
};

function groupCommand(parent: Command, name: string): Command {
  return parent.commands.find((c) => c.name() === name) ?? parent.command(name).description(GROUPS[name] ?? `${name} commands`);
}

/**
 * The CLI projection of the registry: one command per operation that declares one (`mem
 * token mint`, `mem project add-member`, ...), its positional arguments and flags bound to
 * input fields. Each runs as the local root of trust, through the same registry path as HTTP
 * and MCP: the same validation and errors.
 */
export function registerRegistryCommands(program: Command, io: CliIO, operations: readonly AnyOperation[]): void {
  for (const op of operations) {
    const cli = op.cli;
    if (!cli) continue;
    const path = [...cli.command];
    const leaf = path.pop()!;
    let parent = program;
    for (const name of path) parent = groupCommand(parent, name);
    const command = parent.command(leaf).description(op.summary);
    for (const arg of cli.args ?? []) command.argument(`<${arg}>`);
    for (const option of cli.options ?? []) command.option(option.flag, option.description);
    command.option('--json', 'print the result as JSON');
    command.action(async (...params: unknown[]) => {
      const self = params[params.length - 1] as Command;
      const options = self.opts<Record<string, string | boolean | undefined>>();
      const input: Record<string, unknown> = {};
      (cli.args ?? []).forEach((field, i) => {
        input[field] = params[i];
      });
      for (const option of cli.options ?? []) {
        const key = self.options.find((o) => o.flags === option.flag)?.attributeName();
        const value = key !== undefined ? options[key] : undefined;
        if (typeof value === 'string') input[option.field] = parseOption(option, value);
      }
      // A reading operation on a root or project that does not exist is a typo, never an empty answer.
      // A malformed name is left to the operation, which refuses it as a usage error.
      const named = projectNameSchema.safeParse(input['project']);
      const existing = op.kind === 'read' ? { projects: named.success ? [named.data] : [] } : undefined;
      const opened = await openCliRegistry(io, self.optsWithGlobals<GlobalOptions>(), { runJobs: false, ...(existing ? { existing } : {}) });
      try {
        const output = await opened.registry.invoke(op.name, opened.registry.local(localPrincipal()), input);
        if (options['json']) writeJson(io.stdout, cli.json ? cli.json(output) : output);
        else writeLine(io.stdout, cli.text(output));
      } catch (error) {
        if (isMemError(error) && (error.code === 'INVALID_INPUT' || error.code === 'INVALID_PROJECT')) {
          throw new RegistryUsageError(error.message, { cause: error });
        }
        throw error;
      } finally {
        await opened.close();
      }
    });
  }
}
