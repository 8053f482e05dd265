import {
  createTemplateInput,
  okSchema,
  projectFromTemplateInput,
  projectFromTemplateSchema,
  templateIdTextSchema,
  templateListSchema,
  templateSummarySchema,
} from '@reelgraph/shared'
import { Hono } from 'hono'
import { z } from 'zod'
import type { AppEnv } from '../../app-env.ts'
import { docs } from '../../lib/openapi.ts'
import { validate } from '../../lib/validate.ts'
import { requireAuth, requireSignedIn } from '../../middleware/session.ts'
import {
  createProjectFromTemplate,
  createTemplate,
  deleteTemplate,
  listTemplates,
  templateNotFound,
  templatePreview,
} from './template-service.ts'

const TAG = 'Templates'

/** `/api/templates/:id`: an id that is not a template id is a template that does not exist. */
const validateTemplateParams = () =>
  validate('param', z.object({ id: templateIdTextSchema }), { onInvalid: () => templateNotFound() })

/**
 * `/api/templates` (issue 42 item 2): save a project as a template (its members may), list
 * the builtin ones, yours and your team's, their preview frames, and delete one of yours.
 * A template the caller may not use is a 404.
 */
export const templateRoutes = new Hono<AppEnv>()
  // Signed-out callers get 401 before any validator reads the path, query or body (issue 40 item 7).
  .use(requireSignedIn)
  .get(
    '/',
    docs({
      summary: 'The templates you can use: the builtin ones first, then yours and your team’s',
      tag: TAG,
      response: templateListSchema,
    }),
    async (c) => c.json(await listTemplates(c.var.db, { userId: requireAuth(c).user.id })),
  )
  .post(
    '/',
    docs({
      summary: 'Save a project as a template (any member of the project)',
      description:
        'The template keeps the project’s graph (read live), with each `marks` entry’s field replaced by `{{name}}` in the template only (the project is not changed). Its variables are the `{{name}}` placeholders of its node fields and settings; its settings (format, length, scenes, voice) are read from the Script Generator and the Video node; its preview is the Video node’s newest poster, else the first image.',
      tag: TAG,
      response: templateSummarySchema,
      status: 201,
    }),
    validate('json', createTemplateInput),
    async (c) => {
      const { user } = requireAuth(c)
      const created = await createTemplate(c.var.deps, {
        userId: user.id,
        input: c.req.valid('json'),
      })
      return c.json(created, 201)
    },
  )
  .get(
    '/:id/preview',
    docs({
      summary: 'A template’s preview frame (an image)',
      description:
        'A builtin template’s is drawn offline from its example values, the same every time; a saved one’s is the picture it was saved with. 404 for a template you may not use or one without a preview.',
      tag: TAG,
      file: 'image/png',
    }),
    validateTemplateParams(),
    async (c) => {
      const image = await templatePreview(c.var.deps, {
        userId: requireAuth(c).user.id,
        templateId: c.req.valid('param').id,
      })
      return c.body(image.bytes as Uint8Array<ArrayBuffer>, 200, {
        'Content-Type': image.mimeType,
        'Cache-Control': 'private, max-age=300',
        'X-Content-Type-Options': 'nosniff',
      })
    },
  )
  .delete(
    '/:id',
    docs({ summary: 'Delete a template of yours', tag: TAG, response: okSchema }),
    validateTemplateParams(),
    async (c) => {
      await deleteTemplate(c.var.db, {
        userId: requireAuth(c).user.id,
        templateId: c.req.valid('param').id,
      })
      return c.json({ ok: true as const })
    },
  )

/**
 * `POST /api/projects/from-template` (issue 42 item 2): a new project of the caller's from a
 * template and values for its variables, answered with the call that makes its video.
 */
export const projectFromTemplateRoutes = new Hono<AppEnv>().use(requireSignedIn).post(
  '/',
  docs({
    summary: 'Make a new project from a template and values for its variables',
    description:
      'Every variable needs a value: text of at most 500 characters, or for a picture (`image`, `*_image`) an `/api/assets/<id>` you can open or a `data:image/png|jpeg|webp;base64,` URL of at most 8 MiB (copied into the new project). A refused value is a 400 naming the variable, and nothing is stored. The answer’s `makeVideo` is the body of `POST /api/video/make` that makes the video with the template’s settings (null when the graph has no Script Generator).',
    tag: TAG,
    response: projectFromTemplateSchema,
    status: 201,
  }),
  validate('json', projectFromTemplateInput),
  async (c) => {
    const { user } = requireAuth(c)
    const { templateId, name, values } = c.req.valid('json')
    const created = await createProjectFromTemplate(c.var.deps, {
      userId: user.id,
      templateId,
      name,
      values,
    })
    return c.json(created, 201)
  },
)
