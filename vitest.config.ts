import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  // The web app's `@/` alias (web/vite.config.ts), for its modules under test.
  resolve: { alias: { '@': fileURLToPath(new URL('./web/src', import.meta.url)) } },
  test: {
    include: [
      '{shared,db,api,sync-server,worker,media,web,scripts}/src/**/*.test.{ts,tsx}',
      'e2e/support/**/*.test.ts',
    ],
    // Integration tests start PGlite (about 2 s each) and hash passwords with argon2id.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})
