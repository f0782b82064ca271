import type { Registry } from '@mem/registry';
import { cliConfig } from '../config.js';
import { requireDataRoot, requireProjects } from '../existence.js';
import type { RegistryOpener } from '../open-registry.js';
import { resolveDataRoot } from '@mem/engine';

/**
 * The opener of a forwarded command: the server's own registry, after the checks the
 * in-process path makes (the root and the named projects exist: the same NOT_FOUND). Anything
 * but a read of the projections is declined, whatever the argument list looked like, and the
 * command's output discarded: this is the server's second gate, after forwardPlan.
 */
export function warmOpener(
  registry: Registry,
  /** Why the server's vector side is missing now (it may take the embedded PGlite later). */
  vectorNote: () => string | null,
  root: string,
): { open: RegistryOpener; declined: () => string | null } {
  let declined: string | null = null;
  const decline = (why: string): never => {
    declined = why;
    throw new Error(`declined: ${why}`);
  };
  const open: RegistryOpener = async (io, globals, options) => {
    if (!options.existing) decline('not a read');
    if (options.reads !== 'stores' && options.reads !== 'vectors')
      decline(`reads ${options.reads ?? 'everything'}`);
    const paths = resolveDataRoot(cliConfig(io, globals), io.cwd);
    if (paths.root !== root) decline(`another data root (${paths.root})`);
    const { engine } = registry.context;
    requireDataRoot(engine.paths);
    await requireProjects(engine, options.existing!.projects);
    // As in-process: only a query's opening has a vector side to report on.
    const note = options.reads === 'vectors' ? vectorNote() : null;
    return {
      registry,
      vectorNote: note,
      vectorsHeld: false,
      reopenVectors: async () => false,
      holdsVectors: () => false,
      releaseVectors: async () => false,
      // Never asked (it holds no vectors of its own): the read runs on the server, as asked.
      readHeldVectors: async (read) => ({ output: await read() }),
      close: async () => {},
    };
  };
  return { open, declined: () => declined };
}
