// Test support, loaded into a `mem` child with `--import` after module-trace.mjs: appends one
// `v8-flags<TAB><flags>` line to the file MEM_TEST_MODULE_TRACE names for every
// v8.setFlagsFromString call, so a test sees the flags in order with the modules resolved
// around them (a flag set after PGlite compiled its WebAssembly changes nothing).
import { appendFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import v8 from 'node:v8';

const file = process.env.MEM_TEST_MODULE_TRACE;
const set = v8.setFlagsFromString.bind(v8);
v8.setFlagsFromString = (flags) => {
  if (file) appendFileSync(file, `v8-flags\t${flags}\n`);
  set(flags);
};
// ESM named imports of a builtin read a copy of its exports: refresh it with the patched function.
syncBuiltinESMExports();
