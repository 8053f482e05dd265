import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  // The web app's `@/` alias (web/vite.config.ts), for its modules under test.
  resolve: { alias: { '@': fileURLToPath(new URL('./web/src', import.meta.url)) } },
  test: {
    include: [
      '{shared,db,api,sync-server,worker,media,web,scripts}/src/**/*.test.{ts,tsx}',
      'e2e/support/**/*.test.ts',
      // The api's scripts: the web's OpenAPI contract (issue 41 item 4).
      'api/scripts/**/*.test.ts',
    ],
    // Integration tests start PGlite (about 2 s each) and hash passwords with argon2id.
    testTimeout: 30_000,
    // One test file per core. Vitest's default leaves a core to its main process (one worker
    // on this 2-core machine), which idles: most files wait on ffmpeg, databases and sockets.
    // Measured: 924 s against 1235 s for every file, all passing; files that share a database,
    // Redis or ports use their own (testDatabaseKinds, a Redis prefix each, free ports).
    maxWorkers: availableParallelism(),
    hookTimeout: 60_000,
  },
})
