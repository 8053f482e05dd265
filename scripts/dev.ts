/**
 * `npm run dev`: the API on PORT (default 3000, restarted when its code changes) and Vite
 * with hot reload on http://localhost:5173, which proxies /api and /sync to the API.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const children: ChildProcess[] = [
  spawn(
    process.execPath,
    ['--watch-path=api/src', '--watch-path=shared/src', '--watch-path=db/src', 'api/src/server.ts'],
    {
      cwd: root,
      stdio: 'inherit',
      env: {
        ...process.env,
        WEB_DIST_DIR: '',
        APP_URL: process.env.APP_URL ?? 'http://localhost:5173',
      },
    },
  ),
  spawn('node_modules/.bin/vite', ['--config', 'web/vite.config.ts', 'web'], {
    cwd: root,
    stdio: 'inherit',
  }),
]
const stop = () => {
  for (const child of children) child.kill('SIGTERM')
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
for (const child of children)
  child.on('exit', (code) => {
    if (code !== 0 && code !== null) {
      stop()
      process.exitCode = code
    }
  })
