import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { serveStatic } from '@hono/node-server/serve-static'
import { isWebAppPath } from '@reelgraph/shared'
import { Hono } from 'hono'
import type { AppEnv } from '../../app-env.ts'

/** Hashed build assets never change under one name: cache them for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable'

/**
 * Serves the built web app from `distDir`: files as they are, and `index.html` for every
 * other GET path so the client router shows the page: with 200 for the router's pages
 * (`WEB_PATHS` in shared), with 404 for any other path, where the router shows its
 * not-found page (issue 11 item 10: crawlers and monitors see the missing page as missing).
 * @throws Error when `distDir` has no index.html (build the web app first).
 */
export function webRoutes(distDir: string) {
  const root = resolve(distDir)
  const indexFile = join(root, 'index.html')
  if (!existsSync(indexFile)) throw new Error(`No web build at ${root}: run "npm run build" first.`)
  const indexHtml = readFileSync(indexFile, 'utf8')
  return new Hono<AppEnv>()
    .use('*', async (c, next) => {
      await next()
      // Set on the answer itself: serveStatic's onFound runs after its Response is built, so
      // a header set there never reached the client.
      const hashed = c.res.status === 200 && c.req.path.startsWith('/assets/')
      c.res.headers.set('Cache-Control', hashed ? IMMUTABLE : 'no-cache')
    })
    .use('*', serveStatic({ root }))
    .get('*', (c) => c.html(indexHtml, isWebAppPath(c.req.path) ? 200 : 404))
}
