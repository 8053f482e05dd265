import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { serveStatic } from '@hono/node-server/serve-static'
import { Hono } from 'hono'
import type { AppEnv } from '../../app-env.ts'

/** Hashed build assets never change under one name: cache them for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable'

/**
 * Serves the built web app from `distDir`: files as they are, and `index.html` for every
 * other GET path so the client router shows the page (or its 404 page).
 * @throws Error when `distDir` has no index.html (build the web app first).
 */
export function webRoutes(distDir: string) {
  const root = resolve(distDir)
  const indexFile = join(root, 'index.html')
  if (!existsSync(indexFile)) throw new Error(`No web build at ${root}: run "npm run build" first.`)
  const indexHtml = readFileSync(indexFile, 'utf8')
  return new Hono<AppEnv>()
    .use(
      '*',
      serveStatic({
        root,
        onFound: (path, c) => {
          c.header('Cache-Control', path.includes('/assets/') ? IMMUTABLE : 'no-cache')
        },
      }),
    )
    .get('*', (c) => {
      c.header('Cache-Control', 'no-cache')
      return c.html(indexHtml)
    })
}
