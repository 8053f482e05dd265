/**
 * What other workspaces may use of the api (issue 21 item 2), by name: the runtime that
 * assembles a process, the server, the settings, and the job services a benchmark drives.
 * Tests of other workspaces use `@reelgraph/api/testing`.
 */
export type { AppDeps, WorkerDeps } from './app-env.ts'
export { ARGON2_OPTIONS, DEFAULT_RATE_LIMITS } from './config.ts'
export { type Env, loadEnv, SETTING_NAMES, settingLookalikes } from './env.ts'
export { createModelCatalog, type CatalogEnv } from './features/generation/catalog/model-catalog.ts'
export type {
  CatalogVideoModel,
  ClipProgressReport,
  ClipRequest,
  GeneratedClip,
  ModelCatalog,
  VideoProvider,
} from './features/generation/catalog/types.ts'
export { createBuiltinImageProvider } from './features/generation/providers/builtin-image.ts'
export { createBuiltinMotionProvider } from './features/generation/video-providers/builtin-motion.ts'
export type { JobKind, JobKinds } from './features/jobs/job-kind.ts'
export { jobKindMap } from './features/jobs/job-kind.ts'
export { submitGeneration, waitForJob } from './features/jobs/job-service.ts'
export { createJobKinds, type JobKindDeps } from './job-kinds.ts'
export { createLogger } from './lib/logger.ts'
export { closeOnSignal, createRuntime, type Runtime, type RuntimeOptions } from './runtime.ts'
export { main, type RunningServer, startServer } from './server.ts'
