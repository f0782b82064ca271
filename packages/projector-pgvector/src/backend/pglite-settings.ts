/**
 * Postgres settings for the embedded projection, in SHOW's units. PGlite is one backend in one
 * process's WASM heap, and that heap grows but never shrinks: the server defaults (128MB of
 * shared buffers, shared state for 100 connections, 64MB for an index build) cost ~130 MB of
 * RSS at open for a cache a single-user vector index does not need. Measured on opening an
 * existing cluster: 290 MB peak RSS with the defaults, ~160 MB with these.
 */
export const PGLITE_SETTINGS: Readonly<Record<string, string>> = {
  shared_buffers: '8MB',
  // -1 (the default) would be 1/32 of shared_buffers; named so SHOW pins it.
  wal_buffers: '256kB',
  temp_buffers: '1MB',
  work_mem: '4MB',
  // An HNSW build past this goes on building on disk (slower, same index); 16MB holds ~5,000 768-d vectors.
  maintenance_work_mem: '16MB',
  // One backend: the socket server multiplexes its clients onto it.
  max_connections: '4',
  superuser_reserved_connections: '0',
};

/** PGlite's start parameters with the settings appended (`startParams` replaces PGlite's own defaults). */
export function pgliteStartParams(defaults: readonly string[]): string[] {
  return [
    ...defaults,
    ...Object.entries(PGLITE_SETTINGS).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
  ];
}
