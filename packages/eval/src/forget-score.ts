/**
 * `mem eval forget`: seed 003's durability scorecard, scored. The command gathers what each
 * attack on a forgotten line observed in a scratch data root; this module only judges those
 * observations, so the judgement is tested without a data root. An attack that was not observed
 * fails — a scorecard never passes what it did not try.
 */

export const FORGET_OBLIGATIONS = [
  'captured',
  'exact_readd_cli',
  'exact_readd_http',
  'exact_readd_mcp',
  'reworded_readd',
  'reingest',
  'rebuild',
  'synthesis',
  'leak_search',
  'vector_search',
  'purge',
] as const;
export type ForgetObligationName = (typeof FORGET_OBLIGATIONS)[number];

/** One re-add attempt: the error code it was refused with (null: accepted), and whether the log grew. */
export interface ReaddObservation {
  code: string | null;
  log_grew: boolean;
}

/** Files are named relative to the data root. */
export interface LeakObservation {
  searched_files: string[];
  holding: string[];
}

export interface ForgetObservations {
  /** The captured line; null when the store held nothing to forget. */
  fact: { sha256: string; live_before_forget: boolean; forgotten: boolean } | null;
  readds: Partial<Record<'cli' | 'http' | 'mcp' | 'reword', ReaddObservation>>;
  /** A fresh standing query re-gating the transcript the line came from. */
  reingest?: { ran: boolean; lines_forgotten: number; line_returned: boolean };
  /** Projections dropped and rebuilt from the log; live_after: the line answers a query again. */
  rebuild?: { ran: boolean; live_after: boolean };
  /** The L2 synthesis written after the forget. */
  synthesis?: { l2_lines: number; contains_fact: boolean };
  /** Every projection and cache file (the log's original events are purge's business). */
  leak?: LeakObservation;
  /** The embedded Postgres's and the embedding cache's files, searched for a vector of the line. */
  vectors?: LeakObservation;
  /** Every file under the data root, the log included, after `mem purge`. */
  purge?: LeakObservation;
}

export interface ForgetObligation {
  name: ForgetObligationName;
  pass: boolean;
  evidence: string;
}

export interface ForgetScorecard {
  obligations: ForgetObligation[];
  passed: number;
  total: number;
}

type Verdict = [pass: boolean, evidence: string];
const NOT_OBSERVED: Verdict = [false, 'not observed'];

function readd(obs: ReaddObservation | undefined): Verdict {
  if (!obs) return NOT_OBSERVED;
  const pass = obs.code === 'FORGOTTEN' && !obs.log_grew;
  return [
    pass,
    `refused with ${obs.code ?? 'nothing (accepted)'}; log ${obs.log_grew ? 'grew' : 'unchanged'}`,
  ];
}

function leak(obs: LeakObservation | undefined, what = 'the text'): Verdict {
  if (!obs) return NOT_OBSERVED;
  if (obs.searched_files.length === 0) return [false, 'no file was searched'];
  if (obs.holding.length > 0)
    return [false, `${what} is in ${obs.holding.length} file(s): ${obs.holding.join(', ')}`];
  return [true, `no occurrence in ${obs.searched_files.length} file(s)`];
}

function judge(name: ForgetObligationName, obs: ForgetObservations): Verdict {
  switch (name) {
    case 'captured':
      return [true, `line ${obs.fact!.sha256} was live, then forgotten`];
    case 'exact_readd_cli':
      return readd(obs.readds.cli);
    case 'exact_readd_http':
      return readd(obs.readds.http);
    case 'exact_readd_mcp':
      return readd(obs.readds.mcp);
    case 'reworded_readd':
      return readd(obs.readds.reword);
    case 'reingest': {
      const r = obs.reingest;
      if (!r?.ran) return NOT_OBSERVED;
      return [
        r.lines_forgotten > 0 && !r.line_returned,
        `run_end lines_forgotten ${r.lines_forgotten}; line ${r.line_returned ? 'came back' : 'absent'}`,
      ];
    }
    case 'rebuild': {
      const r = obs.rebuild;
      if (!r?.ran) return NOT_OBSERVED;
      return [!r.live_after, `after rebuild the line is ${r.live_after ? 'live again' : 'absent'}`];
    }
    case 'synthesis': {
      const s = obs.synthesis;
      if (!s) return NOT_OBSERVED;
      // A synthesis that wrote no line cannot show that it dropped one.
      if (s.l2_lines === 0) return [false, 'the synthesis wrote no L2 line'];
      return [
        !s.contains_fact,
        `${s.l2_lines} L2 line(s); forgotten line ${s.contains_fact ? 'present' : 'absent'}`,
      ];
    }
    case 'leak_search':
      return leak(obs.leak);
    case 'vector_search':
      return leak(obs.vectors, 'a vector of the text');
    case 'purge':
      return leak(obs.purge);
  }
}

export function scoreForget(obs: ForgetObservations): ForgetScorecard {
  const fact = obs.fact;
  const vacuous = !fact || !fact.live_before_forget || !fact.forgotten;
  const obligations = FORGET_OBLIGATIONS.map((name): ForgetObligation => {
    if (vacuous)
      return {
        name,
        pass: false,
        evidence: fact ? 'the captured line was never live and forgotten' : 'no fact was captured',
      };
    const [pass, evidence] = judge(name, obs);
    return { name, pass, evidence };
  });
  return {
    obligations,
    passed: obligations.filter((o) => o.pass).length,
    total: obligations.length,
  };
}
