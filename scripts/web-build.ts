import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** What the web build is made from: a change to any of these makes the build stale. */
const WEB_INPUTS = [
  'web/src',
  'web/index.html',
  'web/vite.config.ts',
  'web/package.json',
  'web/public',
  'shared/src',
]

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = stat.mtimeMs
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)))
  return newest
}

/** True when `web/dist` is missing or older than any of its sources. */
export function webBuildIsStale(root: string): boolean {
  const built = join(root, 'web/dist/index.html')
  if (!existsSync(built)) return true
  const builtAt = statSync(built).mtimeMs
  return WEB_INPUTS.some((input) => newestMtime(join(root, input)) > builtAt)
}

/**
 * Builds the web app with Vite when its build is missing or stale.
 * @throws Error when the build fails.
 */
export function ensureWebBuild(root: string): void {
  if (!webBuildIsStale(root)) return
  console.log('Building the web app (its build is missing or older than its sources)...')
  const started = performance.now()
  const result = spawnSync(join(root, 'node_modules/.bin/vite'), ['build', '--logLevel', 'warn'], {
    cwd: join(root, 'web'),
    stdio: 'inherit',
    // A production bundle whatever NODE_ENV the app itself runs with (e.g. test).
    env: { ...process.env, NODE_ENV: 'production' },
  })
  if (result.status !== 0) throw new Error('The web build failed; see the output above.')
  console.log(`Web app built in ${((performance.now() - started) / 1000).toFixed(1)} s.`)
}
