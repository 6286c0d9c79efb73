/** pack/: study packs — one archive to re-derive every number of a study offline (docs/packs.md). */

export { describeSubset } from './corpus-subset.js';
export { renderDrift, writeDrift } from './drift-report.js';
export { renderPackContents } from './inspect-text.js';
export { type JudgeDrift, judgeDrift, type MetricDrift } from './judge-drift.js';
export { type OpenedPack, openPack } from './open-pack.js';
export { type MadePack, type MakePackOptions, makePack, packReadme } from './pack.js';
export {
  DEFAULT_PACK_LIMITS,
  PACK_FORMAT,
  type PackedReply,
  type PackFile,
  type PackManifest,
  type ReplayStep,
} from './pack-format.js';
export { type ReplayOptions, replayPack } from './replay.js';
export type { OutputVerdict, StepCache, StepRunner } from './replay-steps.js';
export { writeReplyCache } from './reply-cache.js';
export { collectStudy, type Study, type StudyFile } from './study.js';
export { type ReadLimits, readTarGz, type TarEntry, unsafeEntryName, writeTarGz } from './tar.js';
