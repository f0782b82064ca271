import { cliConfig } from '../config.js';
import type { Command } from 'commander';
import { type GlobalOptions } from '../context.js';
import type { CliIO } from '../io.js';
import { openCliRegistry } from '../open-registry.js';

export function registerMcp(program: Command, io: CliIO): void {
  program
    .command('mcp')
    .description(
      'serve the memory to an agent runtime over MCP (stdio); the token comes from $MEM_TOKEN',
    )
    .option(
      '--no-jobs',
      'accept ingest jobs but run none here (a mem serve on this data root runs them)',
    )
    .action(async (options: { jobs: boolean }, command: Command) => {
      const log = (line: string) => io.stderr.write(`${line}\n`);
      const opened = await openCliRegistry(io, command.optsWithGlobals<GlobalOptions>(), {
        runJobs: options.jobs,
        log,
      });
      // Trigger: the vector side could not open (a running `mem serve` holds the embedded
      // PGlite, or none was built). Why: every answer is then keyword-only, and an agent
      // runtime's log is where its operator looks. Outcome: one line at start, as `mem query` says.
      // Beside a running `mem serve` the held-PGlite note ("stop pid … keyword recall only") is
      // not what happens: reads go to the server, vectors included. Only that is said (the
      // stop-33 walk read both, contradicting each other).
      if (opened.vectorNote && !opened.vectorsHeld) log(`mem mcp: note: ${opened.vectorNote}`);
      if (opened.vectorsHeld)
        log(
          'mem mcp: note: query and context go to the mem serve of this data root while one answers on its socket (vector recall included)',
        );
      // Loaded here, not at startup: only `mem mcp` needs the MCP SDK.
      const { serveMcpStdio } = await import('@mem/mcp');
      const { heldVectorsRoute } = await import('../mcp-route.js');
      const vectors = heldVectorsRoute(opened, io.env, log);
      try {
        await serveMcpStdio(opened.registry, cliConfig(io), log, vectors?.route);
      } finally {
        await vectors?.close();
        await opened.close();
      }
    });
}
