/**
 * The api's test kit, for tests of other workspaces (`@reelgraph/api/testing`): a test app
 * assembled as the server is, accounts and projects, and local HTTP servers that speak a
 * provider's protocol.
 */
export {
  bytes,
  json,
  never,
  type RecordedRequest,
  startTestServer,
  type TestServer,
} from '../features/generation/providers/testing/http-server.ts'
export { chatCompletion } from '../features/generation/providers/testing/openai-answers.ts'
// Video providers speaking their protocols (issue 22): for browser tests and benchmarks that
// need a provider answering at once.
export {
  FAL_TEST_KEY,
  type FalFake,
  falVideoResult,
  startFalFake,
} from '../features/generation/video-providers/testing/fal-fake.ts'
export {
  REPLICATE_TEST_TOKEN,
  type ReplicateFake,
  startReplicateFake,
} from '../features/generation/video-providers/testing/replicate-fake.ts'
export {
  GEMINI_TEST_KEY,
  type GeminiFake,
  startGeminiFake,
} from '../features/generation/video-providers/testing/gemini-fake.ts'
export {
  type ComfyuiFake,
  SAVED_VIDEO,
  startComfyuiFake,
} from '../features/generation/video-providers/testing/comfyui-fake.ts'
export {
  fileReaches,
  type ResultFile,
  resultFile,
  tinyMp4,
} from '../features/generation/video-providers/testing/result-file.ts'
export { addMember, addUser, createProjectAs, type TestUser } from './members.ts'
export {
  createTestApp,
  LOOSE_RATE_LIMITS,
  sessionCookieFrom,
  TEST_ORIGIN,
  type TestApp,
} from './test-app.ts'
export { until } from './until.ts'
