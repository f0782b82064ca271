const queues = new Map<string, Promise<void>>();

/**
 * Runs `fn` after every earlier call with the same key has settled: an in-process queue.
 * Module-wide, so two EventLog instances on one directory still queue on each other.
 */
export async function withKeyedMutex<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const previous = queues.get(key) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((resolve) => (release = resolve));
  const tail = previous.then(() => mine);
  queues.set(key, tail);
  await previous;
  try {
    return await fn();
  } finally {
    release();
    if (queues.get(key) === tail) queues.delete(key);
  }
}
