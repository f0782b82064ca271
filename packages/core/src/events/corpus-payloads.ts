import { z } from 'zod';

/*
 * Reference corpora (DESIGN §1): a documentation tree registered under a name, read from this
 * machine by `mem ref add|sync`. The registration is an event so `sync` re-reads what the log
 * says (not a config file beside it) and a rebuild knows every corpus that existed.
 */

/** A corpus name: what `mem ref sync --name` and `mem ref rm` take, and a vault folder name. */
export const corpusNameField = z
  .string()
  .regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'expected a corpus name: 1-64 of [a-z0-9._-]');

/** A corpus registered (or re-registered with new globs): the root directory and the globs read under it. */
export const corpusRegisteredShape = {
  name: corpusNameField,
  /** Absolute path of the corpus root on the machine that registered it. */
  root: z.string().min(1, 'expected the corpus root directory'),
  /** Globs relative to `root`, sorted, each once. */
  globs: z.array(z.string().min(1)).min(1, 'expected at least one glob'),
};

/** A corpus unregistered by `mem ref rm`: its passages are tombstoned in the same batch. */
export const corpusRemovedShape = {
  name: corpusNameField,
  reason: z.string().min(1, 'expected a non-empty reason'),
};
