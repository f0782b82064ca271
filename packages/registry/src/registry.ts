import { MemError } from '@mem/core';
import { authenticate } from './authenticate.js';
import { authorize } from './authorize.js';
import { anonymousCaller, localCaller, type Caller, type Surface } from './caller.js';
import type { RegistryContext } from './context.js';
import { IdempotencyStore, requireIdempotencyKey } from './idempotency.js';
import { runRecorded } from './recorded-idempotency.js';
import { remoteOperations, type AnyOperation, type AnyRemoteOperation } from './operation.js';
import { lfLineEnds, refuseControlText } from '@mem/core';
import { validateInput } from './validate.js';

export interface InvokeOptions {
  /** A write's idempotency key (HTTP `Idempotency-Key`, MCP `idempotency_key`). */
  idempotencyKey?: string;
  /** Where a long operation says how far it has got (the CLI's progress line). */
  progress?: (line: string) => void;
}

/**
 * The one entry point below every surface: resolve the caller, validate the input, authorize,
 * then run the operation's one implementation. HTTP, MCP and the CLI all come through here,
 * so a check added here holds on every path.
 */
export class Registry {
  private readonly byName: ReadonlyMap<string, AnyOperation>;
  private readonly idempotency: IdempotencyStore;
  /** The operations HTTP, MCP and the OpenAPI document offer: all but the local-only ones. */
  readonly remote: readonly AnyRemoteOperation[];

  constructor(
    readonly context: RegistryContext,
    readonly operations: readonly AnyOperation[],
  ) {
    const byName = new Map<string, AnyOperation>();
    for (const op of operations) {
      if (byName.has(op.name)) throw new Error(`operation ${op.name} is declared twice`);
      byName.set(op.name, op);
    }
    this.byName = byName;
    this.remote = remoteOperations(operations);
    this.idempotency = new IdempotencyStore(() => context.now().getTime());
  }

  operation(name: string): AnyOperation {
    const op = this.byName.get(name);
    if (!op)
      throw new MemError('NOT_FOUND', `no operation ${JSON.stringify(name)}`, { operation: name });
    return op;
  }

  /**
   * The caller a presented credential stands for, as of now (revocations and membership
   * changes made by any process count). No credential: the anonymous caller, which only open
   * operations accept. A credential that does not resolve: UNAUTHENTICATED.
   */
  async authenticate(credential: string | undefined, surface: Surface): Promise<Caller> {
    if (credential === undefined) return anonymousCaller(surface);
    // Settled: a rebuild in another process empties the store before it replays it.
    return this.context.stores.settledRead([], async ({ control }) =>
      authenticate(control, credential, surface, this.context.now()),
    );
  }

  /** The local root of trust (the CLI): whoever can write the data root. */
  local(principal: string): Caller {
    return localCaller(principal);
  }

  /** Stops taking new jobs, waits for the running one, closes the stores and the engine's kept handles. */
  async close(): Promise<void> {
    this.context.jobs.stop();
    await this.context.jobs.idle();
    this.context.stores.close();
    await this.context.stores.idle();
    await this.context.engine.close();
  }

  /**
   * Validates, authorizes and runs `name` for `caller`. An item write (`vectorsLater`), once it
   * answered, starts the background catch-up of pgvector where the context asks for it.
   */
  async invoke(
    name: string,
    caller: Caller,
    rawInput: unknown,
    options: InvokeOptions = {},
  ): Promise<unknown> {
    const output = await this.run(name, caller, rawInput, options);
    const after = this.context.catchUpAfterWrites;
    if (after && this.byName.get(name)?.vectorsLater)
      this.context.stores.catchUpLater(after.onError);
    return output;
  }

  private async run(
    name: string,
    caller: Caller,
    rawInput: unknown,
    options: InvokeOptions = {},
  ): Promise<unknown> {
    const op = this.operation(name);
    // A local-only operation does not exist for a remote caller, whatever surface forwarded the name.
    if (op.local && caller.kind !== 'local')
      throw new MemError('NOT_FOUND', `no operation ${JSON.stringify(name)}`, { operation: name });
    // 401 before 400: an unauthenticated caller learns nothing about the input either.
    if (op.auth.access !== 'open' && caller.kind === 'anonymous')
      authorize(op.auth, caller, undefined);
    // A write's CRLF is stored as LF (lfLineEnds says why); a read's text is never stored.
    const given = op.kind === 'write' ? lfLineEnds(rawInput ?? {}, op.verbatim) : (rawInput ?? {});
    const input: unknown = validateInput(op.input, given, op.name);
    if (op.kind === 'write') refuseControlText(input, op.name, op.verbatim);
    authorize(op.auth, caller, input);
    const progress = options.progress ? { progress: options.progress } : {};
    const around = op.reads === 'vectors' ? this.context.aroundVectorReads : undefined;
    const run = () =>
      around
        ? around(() => op.run(this.context, caller, input, progress))
        : op.run(this.context, caller, input, progress);
    const key = options.idempotencyKey;
    if (key === undefined || op.kind === 'read') return run();
    requireIdempotencyKey(key, op.name);
    const scope = caller.tokenId ?? `${caller.kind}:${caller.principal ?? ''}`;
    const request = { op: op.name, input };
    const replay = op.replay;
    if (!replay) return this.idempotency.run(scope, key, request, run);
    // Recorded in the log as well: the memory store still answers a retry while this one runs.
    const project = recordedProject(op, input);
    return this.idempotency.run(scope, key, request, () =>
      runRecorded(this.context, { ...op, replay }, { scope, key, request, project }, (record) =>
        op.run(this.context, caller, input, { ...progress, idempotency: record }),
      ),
    );
  }
}

/** The project a recorded operation writes to: the input field its authorization names. */
function recordedProject(op: AnyOperation, input: unknown): string {
  const field = op.auth.project;
  const project = field ? (input as Record<string, unknown>)[field] : undefined;
  if (typeof project !== 'string')
    throw new Error(`operation ${op.name} declares replay but names no single project to write to`);
  return project;
}
