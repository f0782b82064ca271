import { MemError } from '@mem/core';

/** What the budget can cut, in the seed's truncation order (seed 001, "Budget is a hard contract"). */
export type Trimmable = 'reference' | 'similar' | 'skills';

/** One entry of the bundle as the budget sees it: its size and, for tier 2, whether it cleared the floor. */
export interface Sized {
  tokens: number;
  /** Tier 2 only: the row cleared the relevance floor itself (it is cut after the rows that did not). */
  cleared?: boolean;
}

export interface BundleParts<
  T1 extends Sized,
  T2 extends Sized,
  T3 extends Sized,
  S extends Sized,
> {
  signature: T1[];
  similar: T2[];
  reference: T3[];
  skills: S[];
}

/** What the budget cut, step by step, and what the kept bundle costs. */
export interface BudgetReport {
  limit: number;
  used: number;
  /** Each step that cut something, in the order it ran. */
  dropped: { part: Trimmable; count: number; tokens: number }[];
}

const total = (list: readonly Sized[]): number => list.reduce((n, e) => n + e.tokens, 0);

/**
 * Fits a bundle into `limit` tokens by the fixed order of seed 001: (1) drop R, lowest ranked
 * first; (2) trim tier 2 toward its floor: the rows that did not clear the floor, lowest first;
 * (3) drop skills; (4) only then the tier-2 rows that cleared the floor — the budget is a hard
 * contract, so they go before it breaks; (5) never tier 1: a bundle whose exact hits alone
 * exceed the budget is BUDGET_EXCEEDED naming the shortfall. Each list comes ranked, best
 * first; the kept lists keep that order. Pure: the caller sized every entry.
 */
export function fitBudget<T1 extends Sized, T2 extends Sized, T3 extends Sized, S extends Sized>(
  parts: BundleParts<T1, T2, T3, S>,
  limit: number,
): { kept: BundleParts<T1, T2, T3, S>; report: BudgetReport } {
  const exact = total(parts.signature);
  if (exact > limit)
    throw new MemError(
      'BUDGET_EXCEEDED',
      `budget: ${limit} tokens cannot hold the ${parts.signature.length} exact signature hit(s), which take ${exact}; ${exact - limit} short (tier 1 is never dropped)`,
      { budget: limit, tier1_tokens: exact, shortfall: exact - limit },
    );
  const similar = [...parts.similar];
  const reference = [...parts.reference];
  const skills = [...parts.skills];
  let used = exact + total(similar) + total(reference) + total(skills);
  const dropped: BudgetReport['dropped'] = [];
  const cut = <E extends Sized>(part: Trimmable, list: E[], keep: (e: E) => boolean) => {
    let count = 0;
    let tokens = 0;
    for (let i = list.length - 1; i >= 0 && used > limit; i--) {
      if (keep(list[i]!)) continue;
      const [gone] = list.splice(i, 1);
      used -= gone!.tokens;
      tokens += gone!.tokens;
      count++;
    }
    const last = dropped[dropped.length - 1];
    if (count > 0 && last?.part === part) {
      last.count += count;
      last.tokens += tokens;
    } else if (count > 0) dropped.push({ part, count, tokens });
  };
  cut('reference', reference, () => false);
  cut('similar', similar, (e) => e.cleared === true);
  cut('skills', skills, () => false);
  cut('similar', similar, () => false);
  return {
    kept: { signature: [...parts.signature], similar, reference, skills },
    report: { limit, used, dropped },
  };
}
