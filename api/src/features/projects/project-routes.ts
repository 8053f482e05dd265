import {
  createdProjectSchema,
  createProjectInput,
  okSchema,
  patchProjectInput,
  projectSchema,
  projectSummarySchema,
  renamedProjectSchema,
  updatedGraphSchema,
} from '@reelgraph/shared'
import { Hono } from 'hono'
import { z } from 'zod'
import type { AppEnv } from '../../app-env.ts'
import { AppError } from '../../lib/app-error.ts'
import { docs } from '../../lib/openapi.ts'
import { validate } from '../../lib/validate.ts'
import { requireAuth } from '../../middleware/session.ts'
import {
  createProject,
  deleteProject,
  getProject,
  listProjects,
  renameProject,
  replaceProjectGraph,
} from './project-service.ts'

const TAG = 'Projects'

/** A project id in the path; anything else is a project that does not exist (404). */
function projectIdParam(raw: string): number {
  const id = /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : Number.NaN
  if (!Number.isSafeInteger(id) || id > 2_147_483_647) {
    throw new AppError('NOT_FOUND', 'This project does not exist, or you do not have access to it.')
  }
  return id
}

/**
 * The projects REST API (spec §7; issue 3 item 1). Owner only: anyone else gets 404.
 */
export const projectRoutes = new Hono<AppEnv>()
  .get(
    '/',
    docs({
      summary: 'The user’s projects, most recently updated first',
      tag: TAG,
      response: z.array(projectSummarySchema),
    }),
    async (c) => c.json(await listProjects(c.var.db, requireAuth(c).user.id)),
  )
  .post(
    '/',
    docs({ summary: 'Create a project', tag: TAG, response: createdProjectSchema, status: 201 }),
    validate('json', createProjectInput),
    async (c) => {
      const { user } = requireAuth(c)
      return c.json(await createProject(c.var.db, user.id, c.req.valid('json')), 201)
    },
  )
  .get(
    '/:id',
    docs({ summary: 'A project with its graph', tag: TAG, response: projectSchema }),
    async (c) =>
      c.json(await getProject(c.var.db, requireAuth(c).user.id, projectIdParam(c.req.param('id')))),
  )
  .patch(
    '/:id',
    docs({
      summary: 'Rename a project, or replace its graph',
      description:
        'Send {name} (answers {name, updatedAt}) or {nodes, connections} (answers the stored graph; open editors see it).',
      tag: TAG,
      response: z.union([renamedProjectSchema, updatedGraphSchema]),
    }),
    validate('json', patchProjectInput),
    async (c) => {
      const { user } = requireAuth(c)
      const id = projectIdParam(c.req.param('id'))
      const body = c.req.valid('json')
      if (body.kind === 'rename')
        return c.json(await renameProject(c.var.db, user.id, id, body.name))
      const graph = { nodes: body.nodes, connections: body.connections }
      return c.json(await replaceProjectGraph(c.var.db, c.var.deps.documents, user.id, id, graph))
    },
  )
  .delete(
    '/:id',
    docs({ summary: 'Delete a project', tag: TAG, response: okSchema }),
    async (c) => {
      const { user } = requireAuth(c)
      await deleteProject(
        c.var.db,
        c.var.deps.documents,
        c.var.deps.assets,
        user.id,
        projectIdParam(c.req.param('id')),
      )
      return c.json({ ok: true as const })
    },
  )
