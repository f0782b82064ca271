// Test support: the configuration an in-process test hands down. Hermetic (nothing of the
// developer's environment leaks in) except the run's PGlite template, which the int tier's
// setup file puts in process.env so every new embedded projection copies it instead of initdb.
import { loadConfig, type MemConfig } from '@mem/core';

export function testConfig(): MemConfig {
  const template = process.env['MEM_TEST_PGLITE_TEMPLATE'];
  return loadConfig(template ? { MEM_TEST_PGLITE_TEMPLATE: template } : {});
}
