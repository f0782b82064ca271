import { hasErrorCode } from '@mem/core';
import { lockPgliteDir } from '@mem/engine';

/**
 * Whether some open file description (another process, or an open of this one) holds the kernel
 * lock of the PGlite directory `dir`: probes it by taking and releasing it. The lock file stays
 * after a release, so whether it exists says nothing.
 */
export function pgliteHeld(dir: string): boolean {
  try {
    lockPgliteDir(dir)();
    return false;
  } catch (error) {
    if (hasErrorCode(error, 'CONFLICT')) return true;
    throw error;
  }
}
