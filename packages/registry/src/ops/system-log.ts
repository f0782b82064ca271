import { SYSTEM_PROJECT, type Payload } from '@mem/core';
import { writerOf, type Caller } from '../caller.js';
import type { RegistryContext } from '../context.js';
import type { StoreView } from '../stores.js';

/**
 * An administration write: under the `_system` section, checks against the stores as they
 * are now, then appends what `plan` returns (nothing when it returns an empty list: the
 * operation was idempotent and had nothing to do). Writers only append.
 */
export async function writeSystem<T>(
  ctx: RegistryContext,
  caller: Caller,
  plan: (view: StoreView) => { payloads: Payload[]; result: T },
): Promise<T> {
  return ctx.serial.run(SYSTEM_PROJECT, async () => {
    const { payloads, result } = plan(await ctx.stores.fresh());
    if (payloads.length > 0) await ctx.engine.append(SYSTEM_PROJECT, payloads, writerOf(caller));
    return result;
  });
}
