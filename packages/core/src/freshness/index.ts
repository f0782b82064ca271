export {
  NEXT_ACTION,
  OPEN_MAX_DAYS,
  freshnessOf,
  heldBack,
  openMarker,
  type Freshness,
  type FreshnessInputs,
  type FreshnessReason,
  type FreshnessState,
  type NextAction,
  type SourceCheck,
} from './verdict.js';
