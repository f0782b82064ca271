// Test support, loaded into a `mem` child with `--import`: records the URL of every module the
// process resolves (ESM imports, static and dynamic) in the file MEM_TEST_MODULE_TRACE names,
// so a test can assert what a command did NOT load. Resolution runs on the loader thread, hence
// the hooks in a module of their own.
import { register } from 'node:module';

register('./module-trace-hooks.mjs', import.meta.url, {
  data: { file: process.env.MEM_TEST_MODULE_TRACE },
});
