import { z } from 'zod';
import { MemError } from './errors.js';

/** The reserved project that holds administration events (principals, tokens, memberships). */
export const SYSTEM_PROJECT = '_system';

const PROJECT_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** A project name: lowercase letters, digits, `.`, `_`, `-`; it names a directory, so no slashes. */
export const projectNameSchema = z
  .string()
  .refine((name) => name === SYSTEM_PROJECT || (PROJECT_NAME.test(name) && !name.includes('..')), {
    message:
      'expected a project name: 1-64 of [a-z0-9._-], starting with a letter or digit (or "_system")',
  });

/** Throws INVALID_PROJECT unless `name` is a valid project name. */
export function assertProjectName(name: unknown): string {
  const result = projectNameSchema.safeParse(name);
  if (!result.success) {
    throw new MemError(
      'INVALID_PROJECT',
      `invalid project name ${JSON.stringify(name)}: expected 1-64 of [a-z0-9._-] starting with a letter or digit`,
      {
        project: name,
      },
    );
  }
  return result.data;
}
