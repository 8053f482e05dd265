import { GENERATED_IMAGE_FILENAME } from '@reelgraph/shared'
import { Hono } from 'hono'
import type { AppEnv } from '../../app-env.ts'
import { docs } from '../../lib/openapi.ts'
import { requireAuth } from '../../middleware/session.ts'
import { readAsset, toJpeg } from './asset-service.ts'

const TAG = 'Assets'

/** Assets never change under their id: cache for a year, privately (they need a session). */
const CACHE_CONTROL = 'private, max-age=31536000, immutable'

/**
 * Generated images (issue 4 item 4; ARCHITECTURE decision 8): `GET /api/assets/:id` gives
 * the bytes to the project's members (issue 6 item 1); `?download=1` gives them as `generated-image.jpg`
 * (spec §9). Anyone else gets 404, anonymous requests 401.
 */
export const assetRoutes = new Hono<AppEnv>().get(
  '/:id',
  docs({
    summary: 'A generated image',
    description:
      'The image bytes with their content type; `?download=1` answers generated-image.jpg as an attachment (JPEG).',
    tag: TAG,
  }),
  async (c) => {
    const { user } = requireAuth(c)
    const asset = await readAsset(c.var.db, c.var.deps.assets, user.id, c.req.param('id'))
    const download = c.req.query('download') === '1'
    const etag = `"${asset.id}${download ? '-download' : ''}"`
    const headers: Record<string, string> = {
      'Cache-Control': CACHE_CONTROL,
      'X-Content-Type-Options': 'nosniff',
      ETag: etag,
    }
    const ifNoneMatch = c.req.header('if-none-match')
    if (ifNoneMatch?.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*')) {
      return c.body(null, 304, headers)
    }
    const bytes = download ? await toJpeg(asset) : asset.bytes
    headers['Content-Type'] = download ? 'image/jpeg' : asset.mimeType
    headers['Content-Length'] = String(bytes.byteLength)
    if (download) {
      headers['Content-Disposition'] = `attachment; filename="${GENERATED_IMAGE_FILENAME}"`
    }
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, headers)
  },
)
