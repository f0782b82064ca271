import type { AnyOperation } from '../operation.js';
import { principalAdd, principalList } from './admin-principals.js';
import { memberAdd, memberRemove, projectAdd } from './admin-projects.js';
import { tokenList, tokenMint, tokenRevoke } from './admin-tokens.js';
import { ingestStatus, ingestSubmit } from './ingest.js';
import { ingestLocal, synthesizeLocal } from './local-run.js';
import { vaultCapture } from './vault-capture.js';
import { projectionStatus, verify } from './log.js';
import { health, version } from './probes.js';
import { projectList, projectNotes, projectStatus } from './projects.js';
import { purge } from './purge.js';
import { query } from './query.js';
import { matchSignature } from './signatures.js';
import { context } from './context.js';
import { confirm, forget, history, supersede } from './corrections.js';
import { pinLine, unpinLine } from './line-pins.js';
import { reviewDismiss, reviewKeep, reviewList, reviewScan, reviewSupersede } from './review.js';
import { skillGet, skillList } from './skills.js';
import { skillDraft, skillPromote, skillRetire } from './skill-lifecycle.js';
import { refAdd, refList, refRemove, refSync } from './references.js';
import {
  addItemsOp,
  confirmItemOp,
  deleteItemsOp,
  findItemsOp,
  readItemsOp,
  relateItemsOp,
  rememberOp,
  resolveItemsOp,
  updateItemOp,
} from './items/ops.js';
import { openItemOp, orientOp } from './items/orient-ops.js';
import { pinItemOp, setAttentionOp, unpinItemOp } from './items/attention.js';
import { addLogOp } from './items/log-item.js';

/** Every operation mem offers, in the order the surfaces list them. */
export const OPERATIONS: readonly AnyOperation[] = [
  health,
  version,
  query,
  matchSignature,
  context,
  forget,
  supersede,
  confirm,
  history,
  pinLine,
  unpinLine,
  orientOp,
  rememberOp,
  addItemsOp,
  readItemsOp,
  findItemsOp,
  resolveItemsOp,
  updateItemOp,
  confirmItemOp,
  relateItemsOp,
  deleteItemsOp,
  setAttentionOp,
  pinItemOp,
  unpinItemOp,
  addLogOp,
  openItemOp,
  reviewScan,
  reviewList,
  reviewKeep,
  reviewDismiss,
  reviewSupersede,
  ingestSubmit,
  ingestStatus,
  projectList,
  projectStatus,
  projectNotes,
  skillList,
  skillGet,
  skillDraft,
  skillPromote,
  skillRetire,
  projectionStatus,
  verify,
  purge,
  principalAdd,
  principalList,
  projectAdd,
  memberAdd,
  memberRemove,
  tokenMint,
  tokenList,
  tokenRevoke,
  ingestLocal,
  synthesizeLocal,
  vaultCapture,
  refAdd,
  refSync,
  refList,
  refRemove,
];
