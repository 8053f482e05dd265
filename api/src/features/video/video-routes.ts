import {
  exportInput,
  jobAcceptedSchema,
  makeVideoInput,
  narrationPreviewInput,
  narrationsOutput,
  narrationsQuery,
  renderQuoteOutput,
  renderQuoteQuery,
  renderVideoInput,
  voicesOutput,
} from '@reelgraph/shared'
import { Hono } from 'hono'
import type { AppEnv } from '../../app-env.ts'
import { docs } from '../../lib/openapi.ts'
import { validate } from '../../lib/validate.ts'
import { attachmentDisposition } from '../../lib/content-disposition.ts'
import { requireAuth, requireSignedIn } from '../../middleware/session.ts'
import { EXPORT_MAX_BYTES, exportTimeline } from './export/export-service.ts'
import { listSceneNarrations } from './narrations-service.ts'
import {
  listNarrationVoices,
  planVideoRender,
  previewSceneNarration,
  submitMakeVideo,
  submitVideoRender,
} from './video-service.ts'

const TAG = 'Video'

/**
 * `/api/video/*` (issue 13): `POST /render` starts the render of a Video node as a job and
 * `POST /make` the whole chain from a Script Generator (item 6); both answer 202
 * `{ jobId, status }` at once (follow it with `GET /api/jobs/:id`, or on the node; cancel
 * with `POST /api/jobs/:id/cancel`). `POST /narration-preview` speaks one scene (item 5).
 * `POST /export` answers a ZIP of the timeline for an editor (issue 24 item 3).
 */
export const videoRoutes = new Hono<AppEnv>()
  // Signed-out callers get 401 before any validator reads the path, query or body (issue 40 item 7).
  .use(requireSignedIn)
  .get(
    '/voices',
    docs({
      summary: 'The narration voices of the active speech provider',
      tag: TAG,
      response: voicesOutput,
    }),
    async (c) => {
      requireAuth(c)
      return c.json(await listNarrationVoices(c.var.deps, c.req.raw.signal))
    },
  )
  .get(
    '/narrations',
    docs({
      summary: 'Each scene’s narration of a Video node: length, words and audio (its timeline)',
      description:
        'Spoken before (in the narration cache): the exact length, word times and the WAV. Not yet: `estimated`, with the documented estimate and no audio. Members only (a stranger gets 404).',
      tag: TAG,
      response: narrationsOutput,
    }),
    validate('query', narrationsQuery),
    async (c) => {
      const { user } = requireAuth(c)
      return c.json(
        await listSceneNarrations(c.var.deps, { ...c.req.valid('query'), userId: user.id }),
      )
    },
  )
  .get(
    '/render-quote',
    docs({
      summary: 'What rendering a Video node would cost now (its Render button)',
      description:
        'COST_VIDEO plus COST_VOICE per scene narration the narration cache does not hold yet; members only (a stranger gets 404). 400 as POST /render for a node that cannot render.',
      tag: TAG,
      response: renderQuoteOutput,
    }),
    validate('query', renderQuoteQuery),
    async (c) => {
      const { user } = requireAuth(c)
      const plan = await planVideoRender(c.var.deps, {
        ...c.req.valid('query'),
        userId: user.id,
        needed: 'member',
      })
      return c.json({ credits: plan.credits, voices: plan.voices })
    },
  )
  .post(
    '/render',
    docs({
      summary: 'Render a Video node’s scenes into an MP4 (charged; a job)',
      description:
        'Renders what the Video node’s timeline says (order, trims, transitions, cards, music, caption look; none yet: each scene in order). `captions` sets the caption look over the timeline’s. Charged COST_VIDEO + COST_VOICE per scene narration not in the narration cache (GET /render-quote says how much). 400 lists the scenes without an image in `fields` (scene node id -> message); 400 for an unknown caption style or a timeline whose every cut was removed.',
      tag: TAG,
      accepted: jobAcceptedSchema,
    }),
    validate('json', renderVideoInput),
    async (c) => {
      const { user } = requireAuth(c)
      const job = await submitVideoRender(c.var.deps, { ...c.req.valid('json'), userId: user.id })
      return c.json({ jobId: job.id, status: job.status }, 202)
    },
  )
  .post(
    '/make',
    docs({
      summary: 'Make a video from a Script Generator’s topic (charged once; one job)',
      description:
        'Runs script -> `sceneCount` scenes -> an image per scene -> a Video node -> the render (in the `captions` look, classic by default), writing each step into the project. Charged COST_SCRIPT + COST_SCENES + (COST_IMAGE + COST_VOICE) per scene + COST_VIDEO up front; a failure or cancel refunds the steps not delivered.',
      tag: TAG,
      accepted: jobAcceptedSchema,
    }),
    validate('json', makeVideoInput),
    async (c) => {
      const { user } = requireAuth(c)
      const job = await submitMakeVideo(c.var.deps, { ...c.req.valid('json'), userId: user.id })
      return c.json({ jobId: job.id, status: job.status }, 202)
    },
  )
  .post(
    '/narration-preview',
    docs({
      summary: 'Speak a scene’s narration (the scene play button; free, rate limited)',
      description: 'Answers `audio/wav` (PCM, mono, 16-bit) with `X-Duration-Ms`.',
      tag: TAG,
      file: 'audio/wav',
    }),
    validate('json', narrationPreviewInput),
    async (c) => {
      const { user } = requireAuth(c)
      const preview = await previewSceneNarration(c.var.deps, {
        ...c.req.valid('json'),
        userId: user.id,
      })
      return c.body(new Uint8Array(preview.wav), 200, {
        'Content-Type': 'audio/wav',
        'Cache-Control': 'private, no-store',
        'X-Duration-Ms': String(Math.round(preview.durationMs)),
      })
    },
  )
  .post(
    '/export',
    docs({
      summary:
        'Export a Video node’s timeline for an editor: a ZIP of OTIO or FCPXML and its media',
      description: `Answers \`application/zip\` as an attachment (\`<project name> - OTIO.zip\` or \`- FCPXML.zip\`): the timeline file (\`format\` \`otio\`: OpenTimelineIO JSON; \`fcpxml\`: Final Cut Pro XML 1.10) at the top, \`README.txt\`, and \`media/\` with each scene's clip or picture, each narration WAV and the music, which the timeline file references by relative paths. Cuts, order, in and out points, durations and transitions are those the render makes (30 fps). Members only, viewers too (a stranger gets 404); 409 NOT_RENDERED before the node's first render or when a narration changed since; 400 for an empty timeline, a scene without a picture, music the render would refuse (another project's, gone, or no audio: in the render's words), or media over ${EXPORT_MAX_BYTES / 1024 / 1024} MiB; rate limited.`,
      tag: TAG,
      file: 'application/zip',
    }),
    validate('json', exportInput),
    async (c) => {
      const { user } = requireAuth(c)
      const exported = await exportTimeline(c.var.deps, { ...c.req.valid('json'), userId: user.id })
      return c.body(exported.zip, 200, {
        'Content-Type': 'application/zip',
        'Content-Disposition': attachmentDisposition(exported.fileName),
        'Cache-Control': 'private, no-store',
        'X-Content-Type-Options': 'nosniff',
      })
    },
  )
