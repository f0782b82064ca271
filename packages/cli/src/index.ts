export { buildProgram, main } from './main.js';
export { EXIT, UsageError, VerificationFailed, exitCodeFor } from './exit.js';
export type { CliIO } from './io.js';
