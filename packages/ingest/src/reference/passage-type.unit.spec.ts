import { describe, expectTypeOf, it } from 'vitest';
import type { LoopStep } from '@mem/extractor';
import type { ReferencePassage } from './passages.js';

/*
 * R never enters the gated loop, by type: a reference passage cannot be handed to the loop as a
 * chunk, not even one dressed up with every field a LoopStep has (its `level` gives it away).
 * `tsc -p tsconfig.specs.json` fails if it could.
 */
describe('ReferencePassage', () => {
  it('is no LoopStep, even with every LoopStep field added', () => {
    expectTypeOf<ReferencePassage>().not.toExtend<LoopStep>();
    expectTypeOf<ReferencePassage & Omit<LoopStep, 'level'>>().not.toExtend<LoopStep>();
  });
});
