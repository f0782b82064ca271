export { Registry, type InvokeOptions } from './registry.js';
export { openRegistry, type OpenRegistryOptions } from './open.js';
export { OPERATIONS } from './ops/index.js';
export {
  defineOperation,
  remoteOperations,
  type AnyOperation,
  type AnyRemoteOperation,
  type Authorization,
  type CliCommand,
  type CliOption,
  type HttpMethod,
  type HttpRoute,
  type LocalOnly,
  type LocalOperation,
  type McpTool,
  type Operation,
  type Reads,
  type RemoteOperation,
  type RunEffects,
} from './operation.js';
export {
  canReach,
  localCaller,
  anonymousCaller,
  writerOf,
  type Caller,
  type Surface,
} from './caller.js';
export { authorize } from './authorize.js';
export { inputJsonSchema, outputJsonSchema, type JsonSchema } from './json-schema.js';
export { outputDrift } from './output-drift.js';
export { validateInput } from './validate.js';
export { splitList } from './list-input.js';
export { IDEMPOTENCY_ARGUMENT, mcpTools, type McpToolGroup } from './mcp-tools.js';
export type { RegistryContext } from './context.js';
export { CALLER_ERROR_CODES, isCallerError } from './caller-errors.js';
export { refuseUncapturedEdits } from './ops/rebuild-guard.js';
export { appendLogBatch } from './ops/corrections.js';
