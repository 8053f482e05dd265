import {
  createdProjectSchema,
  createProjectInput,
  encodeGraphJson,
  GRAPH_FILE_MESSAGES,
  GRAPH_FILE_VERSION,
  graphFileSchema,
  importedProjectSchema,
  importProjectQuery,
  okSchema,
  parseGraphFile,
  parsePatchProjectInput,
  patchProjectInput,
  projectSchema,
  projectSummarySchema,
  readGraphJson,
  renamedProjectSchema,
  startsAsGraphJson,
  updatedGraphSchema,
} from '@reelgraph/shared'
import { type Context, Hono } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { z } from 'zod'
import type { AppEnv } from '../../app-env.ts'
import { AppError } from '../../lib/app-error.ts'
import { attachmentDisposition } from '../../lib/content-disposition.ts'
import { docs } from '../../lib/openapi.ts'
import { type JsonBody, validate, validateJson } from '../../lib/validate.ts'
import { requireAuth, requireSignedIn } from '../../middleware/session.ts'
import { validateProjectParams } from '../access/project-access.ts'
import { exportProjectGraph, importProjectGraph } from './graph-file-service.ts'
import {
  createProject,
  deleteProject,
  getProject,
  knownNodesForGraph,
  listProjects,
  renameProject,
  replaceProjectGraph,
} from './project-service.ts'

const TAG = 'Projects'

/** Whether a PATCH body means to replace the graph (has `nodes`), not to rename. */
function isGraphBody(body: unknown): boolean {
  return typeof body === 'object' && body !== null && 'nodes' in body
}

/**
 * A graph file's parsed JSON; a file that is not JSON is refused in the graph file's words.
 * @throws AppError 400 INVALID_JSON
 */
function graphFileJson(body: JsonBody): unknown {
  try {
    return body.value()
  } catch (error) {
    if (error instanceof HTTPException)
      throw new AppError('INVALID_JSON', GRAPH_FILE_MESSAGES.notJson)
    throw error
  }
}

/**
 * The projects REST API (spec §7; issue 3 item 1), by role (issue 6 item 1): any member
 * reads (and exports the graph file), owner and editors rename and replace the graph, the
 * owner deletes; anyone signed in imports a graph file as a project of their own (issue 42
 * item 2). Non-members get 404, members whose role does not allow the call 403 FORBIDDEN.
 */
export const projectRoutes = new Hono<AppEnv>()
  // Signed-out callers get 401 before any validator reads the path, query or body (issue 40 item 7).
  .use(requireSignedIn)
  .get(
    '/',
    docs({
      summary: 'The user’s projects and those shared with them, most recently updated first',
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
  .post(
    '/import',
    docs({
      summary: 'Import a graph file as a new project',
      description: `Send a graph file (what GET /api/projects/{id}/export.json answers, format ${GRAPH_FILE_VERSION}) as the JSON body. It is read by the same rules as the project's document; anything they refuse is a 400 in words (413 over the size limit) and nothing is stored. The new project is the caller's, named \`?name=\` or as the file says, with the file's node ids; the state of past jobs is not imported, and a field naming a file the caller cannot open (another person's project, or deleted) is left out and said in \`warnings\`.`,
      tag: TAG,
      response: importedProjectSchema,
      status: 201,
    }),
    validate('query', importProjectQuery),
    validateJson(graphFileSchema, (body) => parseGraphFile(graphFileJson(body))),
    async (c) => {
      const { user } = requireAuth(c)
      const imported = await importProjectGraph(
        { db: c.var.db, documents: c.var.deps.documents },
        { userId: user.id, file: c.req.valid('json'), name: c.req.valid('query').name },
      )
      return c.json(imported, 201)
    },
  )
  .get(
    '/:id/export.json',
    docs({
      summary: 'A project as a graph file (any member)',
      description:
        'Answers the graph file as an attachment, `<project name>.reelgraph.json`: its name and description, nodes (without the state of past jobs), connections and Video timelines. POST /api/projects/import makes a new project of it.',
      tag: TAG,
      response: graphFileSchema,
    }),
    validateProjectParams(),
    async (c) => {
      const exported = await exportProjectGraph(c.var.db, {
        userId: requireAuth(c).user.id,
        projectId: c.req.valid('param').id,
      })
      return c.body(exported.text, 200, {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Disposition': attachmentDisposition(exported.fileName),
        'Cache-Control': 'private, no-store',
        'X-Content-Type-Options': 'nosniff',
      })
    },
  )
  .get(
    '/:id',
    docs({
      summary: 'A project with its graph (any member)',
      tag: TAG,
      response: projectSchema,
    }),
    validateProjectParams(),
    async (c) =>
      c.json(
        await getProject(c.var.db, {
          userId: requireAuth(c).user.id,
          projectId: c.req.valid('param').id,
        }),
      ),
  )
  .patch(
    '/:id',
    docs({
      summary: 'Rename a project, or replace its graph (owner or editor)',
      description:
        'Send {name} (answers {name, updatedAt}) or {nodes, connections} (answers the stored graph; open editors see it).',
      tag: TAG,
      response: z.union([renamedProjectSchema, updatedGraphSchema]),
    }),
    validateProjectParams(),
    // An autosave sends the whole graph with one node moved: the nodes the project holds are
    // neither decoded nor parsed again (issue 23). A graph body is judged once the caller may
    // write it. (The id was checked by validateProjectParams above.)
    validateJson(patchProjectInput, async (body, c: Context<AppEnv>, clean) => {
      const caller = { userId: requireAuth(c).user.id, projectId: Number(c.req.param('id')) }
      const knownNodes = () => knownNodesForGraph(c.var.db, c.var.deps.documents, caller)
      if (startsAsGraphJson(body.bytes)) {
        const known = await knownNodes()
        const read = known && readGraphJson(body.bytes, known)
        if (read) body.read(read)
        return parsePatchProjectInput(body.value(), known, clean)
      }
      const value = body.value()
      return parsePatchProjectInput(
        value,
        isGraphBody(value) ? await knownNodes() : undefined,
        clean,
      )
    }),
    async (c) => {
      const { user } = requireAuth(c)
      const { id } = c.req.valid('param')
      const body = c.req.valid('json')
      if (body.kind === 'rename')
        return c.json(
          await renameProject(c.var.db, { userId: user.id, projectId: id, name: body.name }),
        )
      const graph = { nodes: body.nodes, connections: body.connections }
      const stored = await replaceProjectGraph(c.var.db, c.var.deps.documents, {
        userId: user.id,
        projectId: id,
        graph,
      })
      // The JSON of the nodes answered before is reused (an autosave moves one node).
      return c.body(encodeGraphJson(stored) as Uint8Array<ArrayBuffer>, 200, {
        'content-type': 'application/json',
      })
    },
  )
  .delete(
    '/:id',
    docs({ summary: 'Delete a project (owner only)', tag: TAG, response: okSchema }),
    validateProjectParams(),
    async (c) => {
      const { user } = requireAuth(c)
      await deleteProject(c.var.db, c.var.deps.documents, c.var.deps.assets, {
        userId: user.id,
        projectId: c.req.valid('param').id,
      })
      return c.json({ ok: true as const })
    },
  )
