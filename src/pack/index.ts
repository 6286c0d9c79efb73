/** pack/: study packs — one archive to re-derive every number of a study offline (docs/packs.md). */

export {
  type MadePack,
  type MakePackOptions,
  makePack,
  type OpenedPack,
  type OutputVerdict,
  openPack,
  packReadme,
  type ReplayOptions,
  replayPack,
  type StepRunner,
} from './pack.js';
export {
  DEFAULT_PACK_LIMITS,
  PACK_FORMAT,
  type PackedReply,
  type PackFile,
  type PackManifest,
  type ReplayStep,
} from './pack-format.js';
export { collectStudy, type Study, type StudyFile } from './study.js';
export { type ReadLimits, readTarGz, type TarEntry, unsafeEntryName, writeTarGz } from './tar.js';
