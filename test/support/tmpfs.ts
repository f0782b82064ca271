// Test support: a real, small tmpfs, to run the disk-full paths against a file system that is full.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Whether this process can mount a tmpfs (root, and a kernel that lets it); why not, if not. */
export function tmpfsSupport(): { ok: true } | { ok: false; reason: string } {
  if (process.platform !== 'linux')
    return { ok: false, reason: `tmpfs needs Linux, this is ${process.platform}` };
  if (process.getuid?.() !== 0) return { ok: false, reason: 'mounting a tmpfs needs root' };
  const probe = mkdtempSync(join(tmpdir(), 'mem-tmpfs-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { stdio: 'pipe' });
    execFileSync('umount', [probe], { stdio: 'pipe' });
    return { ok: true };
  } catch (error) {
    return {
      ok: false,
      reason: `mount -t tmpfs failed: ${String((error as { stderr?: unknown }).stderr ?? error).trim()}`,
    };
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

/** A tmpfs of `bytes` mounted on `dir` (created when missing); `fill` leaves about `free` bytes. */
export interface SmallTmpfs {
  dir: string;
  /** Bytes the file system has left. */
  free(): number;
  /** Writes a filler file (outside any project) until about `free` bytes are left. */
  fill(free: number): void;
  /** Deletes the filler, giving its space back. */
  drain(): void;
  unmount(): void;
}

export function mountTmpfs(dir: string, bytes: number): SmallTmpfs {
  execFileSync('mkdir', ['-p', dir]);
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes},mode=0700`, 'tmpfs', dir], {
    stdio: 'pipe',
  });
  const filler = join(dir, '.filler');
  const free = () => {
    const stats = statfsSync(dir);
    return stats.bavail * stats.bsize;
  };
  return {
    dir,
    free,
    fill(leave: number) {
      const fd = openSync(filler, 'a');
      try {
        const block = Buffer.alloc(4096, 0x2e);
        while (free() - block.length >= leave) writeSync(fd, block);
      } finally {
        closeSync(fd);
      }
    },
    drain() {
      rmSync(filler, { force: true });
    },
    unmount() {
      execFileSync('umount', [dir], { stdio: 'pipe' });
    },
  };
}
