// fs-native-extensions ships no types; these cover the three calls the log uses.
declare module 'fs-native-extensions' {
  /** Non-blocking exclusive lock (OFD lock on Linux, flock on macOS); false when another descriptor holds it. */
  export function tryLock(fd: number, options?: { shared?: boolean }): boolean;
  /** Waits in the libuv thread pool until the lock is granted. */
  export function waitForLock(fd: number, options?: { shared?: boolean }): Promise<void>;
  export function unlock(fd: number): void;
}
