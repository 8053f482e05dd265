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
export { addMember, addUser, createProjectAs, type TestUser } from './members.ts'
export {
  createTestApp,
  LOOSE_RATE_LIMITS,
  sessionCookieFrom,
  TEST_ORIGIN,
  type TestApp,
} from './test-app.ts'
export { until } from './until.ts'
