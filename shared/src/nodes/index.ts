/**
 * Node data, defined once (issue 21 item 3): one module per node type, the registry, and the
 * field and migration machinery they share.
 */
export * from './registry.ts'
export { JOB_FIELD_KEYS, JOB_FIELDS, type JobFields, readJobFields } from './job-fields.ts'
export type { NodeField, NodeFieldKind, NodeFields, NodeFieldsData } from './node-field.ts'
export type { NodeDataMigration, NodeKind, StoredNodeData } from './node-kind.ts'
export {
  addClipTake,
  type ClipTake,
  clipResultData,
  clipTakeSchema,
  MAX_CLIP_TAKES,
} from './clip.ts'
export {
  CLIP_FITS,
  CLIP_SHORTER,
  CLIP_SOUND,
  type ClipFit,
  type ClipShorter,
  type ClipSound,
  MAX_VIDEO_TAKES,
  VIDEO_PRESET_NAMES,
  type VideoPresetName,
  type VideoTake,
  videoResultData,
  videoTakeSchema,
} from './video.ts'
