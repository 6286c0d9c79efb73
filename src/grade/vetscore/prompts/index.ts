export { type Decomposition, DecompositionSchema, decomposePrompt } from './decompose.js';
export { delimit, UNTRUSTED_NOTE, VERBATIM_QUOTE_NOTE } from './delimit.js';
export { type HarmRating, HarmSchema, harmPrompt } from './harm.js';
export { type JointJudgment, JointSchema, jointPrompt } from './joint.js';
export { type Verification, VerificationSchema, verifyPrompt } from './verify.js';
