/**
 * `npm start`: one process serving the web app, the API and (from the canvas issue) the
 * sync server on PORT (default 3000), with embedded defaults: PGlite in ./data/pg, emails
 * in ./data/mail. Builds the web app first when its build is missing or stale.
 */
import { fileURLToPath } from 'node:url'
import { main } from '@reelgraph/api'
import { ensureWebBuild } from './web-build.ts'

const root = fileURLToPath(new URL('..', import.meta.url))
process.chdir(root)
try {
  if (process.env.NODE_ENV !== 'production') ensureWebBuild(root)
  await main()
} catch (err) {
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
}
