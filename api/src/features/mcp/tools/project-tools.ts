import { type GraphJsonEntry, graphJsonTail } from '../../projects/graph-json-cache.ts'
import { createProject, getProjectGraphJson, listProjects } from '../../projects/project-service.ts'
import { jsonLiteralBytes, SplicedJson } from '../json-splice.ts'
import { defineTool } from '../mcp-tool.ts'

/** The project tools (issue 41 item 2): the same services as `/api/projects`. */

/**
 * Each cached graph's text escaped once (`SplicedJson`), as long as the cache keeps its entry:
 * an entry is one version of one project's graph, and a newer version is a new entry.
 */
const tailLiterals = new WeakMap<GraphJsonEntry, Uint8Array>()

function tailLiteralOf(graph: GraphJsonEntry): Uint8Array {
  const kept = tailLiterals.get(graph)
  if (kept) return kept
  const literal = jsonLiteralBytes(graphJsonTail(graph))
  tailLiterals.set(graph, literal)
  return literal
}

export const listProjectsTool = defineTool({
  name: 'list_projects',
  title: 'List projects',
  description:
    'The projects you can open (yours and those shared with you), most recently changed first: id, name, your role (owner, editor or viewer), node count. A token limited to some projects lists only those.',
  readOnly: true,
  async run(_input, { deps, actor }) {
    const projects = await listProjects(deps.db, actor.user.id)
    return {
      projects: projects.map((p) => ({
        id: p.id,
        name: p.name,
        role: p.role,
        nodeCount: p.nodeCount,
        updatedAt: p.updatedAt,
      })),
    }
  },
})

export const createProjectTool = defineTool({
  name: 'create_project',
  title: 'Create a project',
  description:
    'Creates an empty project (you are its owner) and answers its id. Build its graph with add_nodes and connect_nodes, or call make_video on it.',
  readOnly: false,
  async run({ name, description }, { deps, actor }) {
    const created = await createProject(deps.db, actor.user.id, {
      name,
      description,
      nodes: [],
      connections: [],
    })
    return { projectId: created.id, name: created.name }
  },
})

export const getProjectTool = defineTool({
  name: 'get_project',
  title: 'Read a project’s graph',
  description:
    'A project’s graph as the canvas holds it: its nodes (id, type, label, position, data) and connections (source -> target), with your role. Node data holds each node’s fields and, on generator nodes, the state of their last job (`jobId`, `jobStatus`, `jobProgress`).',
  readOnly: true,
  async run({ projectId }, { deps, actor }) {
    const { fields, graph } = await getProjectGraphJson(deps.db, {
      userId: actor.user.id,
      projectId,
    })
    return new SplicedJson(fields, tailLiteralOf(graph))
  },
})
