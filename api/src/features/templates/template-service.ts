import type { DB, TemplateRow } from '@reelgraph/db'
import {
  type CreateTemplateInput,
  docToGraph,
  dropDuplicateConnections,
  fillPlaceholders,
  getTimelinesMap,
  graphFileNode,
  graphFileTimelines,
  type MakeVideoInput,
  makeVideoInput,
  placeholdersIn,
  readNodeData,
  TEMPLATE_MAX_VARIABLES,
  type TemplateSettings,
  templateSettingsSchema,
  type TemplateSource,
  type TemplateSummary,
  type TemplateValues,
  type TemplateVariable,
  templateProjectName,
  templateValueProblems,
  templateVariableSchema,
  timelineRegistersOfFile,
  updateNodeData,
} from '@reelgraph/shared'
import { type Kysely, sql } from 'kysely'
import { z } from 'zod'
import type { AppDeps } from '../../app-env.ts'
import { AppError } from '../../lib/app-error.ts'
import { requireProjectRole } from '../access/project-access.ts'
import { assetIdsIn } from '../assets/asset-references.ts'
import { deleteProjectAssets, storeGeneratedImage } from '../assets/asset-service.ts'
import { renderStoryboardFrame } from '../generation/providers/builtin-image.ts'
import { keepReadableReferences, readableAssetIds } from '../projects/graph-file-assets.ts'
import { createProject } from '../projects/project-service.ts'
import { BUILTIN_TEMPLATES } from './builtin-templates.ts'
import {
  applyMarks,
  fillGraph,
  layOutUnplaced,
  settingsOf,
  type TemplateGraph,
  variablesOf,
} from './template-graph.ts'
import { readTemplateImages } from './template-images.ts'

/**
 * Templates (issue 42 item 2): a project's graph saved with variables, listed for the people
 * who may use it (everyone: the builtin ones; its owner; the members of the project it was
 * saved from: their team's), and new projects made from one with values for its variables.
 * A template the caller may not use is a 404, as one that does not exist.
 */

/** The 404 of a template the caller may not use (or that does not exist). */
export function templateNotFound(): AppError {
  return new AppError('NOT_FOUND', 'This template does not exist, or you cannot use it.')
}

/** A template as the services read it. */
export interface Template {
  id: number
  name: string
  description: string
  source: TemplateSource
  /** The account that saved it; null for a builtin one. */
  ownerId: number | null
  builtinKey: string | null
  graph: TemplateGraph
  variables: TemplateVariable[]
  settings: TemplateSettings
  previewAssetId: string | null
  createdAt: Date
}

const storedGraph = z.object({
  nodes: z.array(z.any()).default([]),
  connections: z.array(z.any()).default([]),
  timelines: z.record(z.string(), z.any()).default({}),
})

/** A row as a {@link Template}, from `userId`'s side. */
function templateOf(row: TemplateRow, userId: number): Template {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    source: row.builtin_key !== null ? 'builtin' : row.owner_id === userId ? 'yours' : 'team',
    ownerId: row.owner_id,
    builtinKey: row.builtin_key,
    graph: storedGraph.parse(row.graph) as TemplateGraph,
    variables: z.array(templateVariableSchema).parse(row.variables),
    settings: templateSettingsSchema.parse(row.settings),
    previewAssetId: row.preview_asset_id,
    createdAt: row.created_at,
  }
}

/** The summary `GET /api/templates` lists. */
function summaryOf(template: Template): TemplateSummary {
  const hasPreview = template.builtinKey !== null || template.previewAssetId !== null
  return {
    id: template.id,
    name: template.name,
    description: template.description,
    source: template.source,
    variables: template.variables,
    settings: template.settings,
    previewUrl: hasPreview ? `/api/templates/${template.id}/preview` : null,
    nodeCount: template.graph.nodes.length,
    createdAt: template.createdAt.toISOString(),
  }
}

/** The templates `userId` may use: builtin, theirs, and those saved from their projects. */
function usableTemplates(db: Kysely<DB>, userId: number) {
  return db
    .selectFrom('templates')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb('builtin_key', 'is not', null),
        eb('owner_id', '=', userId),
        eb(
          'project_id',
          'in',
          eb.selectFrom('project_members').select('project_id').where('user_id', '=', userId),
        ),
      ]),
    )
}

/**
 * Template `templateId`, when `userId` may use it (issue 42 items 2, 3: the batch runner
 * reads it too).
 * @throws AppError 404 NOT_FOUND for a template that does not exist or that `userId` may not use.
 */
export async function getTemplate(
  db: Kysely<DB>,
  { userId, templateId }: { userId: number; templateId: number },
): Promise<Template> {
  const row = await usableTemplates(db, userId).where('id', '=', templateId).executeTakeFirst()
  if (!row) throw templateNotFound()
  return templateOf(row, userId)
}

/**
 * The templates `userId` may use (issue 42 item 2): the builtin ones first (in the gallery's
 * order), then theirs and their team's, newest first.
 */
export async function listTemplates(
  db: Kysely<DB>,
  { userId }: { userId: number },
): Promise<{ templates: TemplateSummary[] }> {
  const rows = await usableTemplates(db, userId)
    .orderBy(sql`builtin_key is null`)
    .orderBy(sql`case when builtin_key is null then created_at end`, 'desc')
    .orderBy('id', 'asc')
    .execute()
  return { templates: rows.map((row) => summaryOf(templateOf(row, userId))) }
}

/**
 * The preview frame of a project's graph: the newest clip's poster, else the first image
 * node's picture (an asset the graph names), else none.
 */
function previewAssetOf(graph: TemplateGraph): string | null {
  const clip = graph.nodes.find(
    (n) => n.type === 'clip' && assetIdsIn([readNodeData('clip', n.data).posterUrl]).length > 0,
  )
  if (clip) return assetIdsIn([readNodeData('clip', clip.data).posterUrl])[0]!
  for (const node of graph.nodes) {
    if (node.type !== 'image') continue
    const [id] = assetIdsIn([readNodeData('image', node.data).imageUrl])
    if (id) return id
  }
  return null
}

/**
 * Saves project `input.projectId` as a template of `userId`'s (issue 42 item 2): any member
 * may. The graph is read live through the document gateway (what editors see now), each node
 * as a graph file keeps it (no job state), with its Video nodes' timelines; each mark's field
 * becomes `{{name}}` in the template's copy only. Its variables are the placeholders of its
 * texts, its settings read from its Script Generator and Video node, its preview the newest
 * clip poster or first image.
 * @throws AppError 404 for a project `userId` is not a member of; 400 for a mark of a node
 *   that is not there or a field that holds no text, or more than TEMPLATE_MAX_VARIABLES
 *   variables.
 */
export async function createTemplate(
  deps: Pick<AppDeps, 'db' | 'documents'>,
  { userId, input }: { userId: number; input: CreateTemplateInput },
): Promise<TemplateSummary> {
  const { projectId } = input
  await requireProjectRole(deps.db, { userId, projectId, needed: 'member' })
  const live = await deps.documents.transact(projectId, (doc) => ({
    graph: docToGraph(doc),
    registers: [...getTimelinesMap(doc).entries()] as [string, unknown][],
  }))
  const nodes = applyMarks(live.graph.nodes.map(graphFileNode), input.marks)
  const videoIds = new Set(nodes.filter((n) => n.type === 'video').map((n) => n.id))
  const graph: TemplateGraph = {
    nodes,
    connections: live.graph.connections,
    timelines: graphFileTimelines(live.registers, videoIds),
  }
  const settings = settingsOf(nodes)
  const variables = variablesOf(graph, settings)
  if (variables.length > TEMPLATE_MAX_VARIABLES) {
    throw new AppError(
      'BAD_REQUEST',
      `A template can have at most ${TEMPLATE_MAX_VARIABLES} variables; this one would have ${variables.length}.`,
    )
  }
  const row = await deps.db
    .insertInto('templates')
    .values({
      owner_id: userId,
      project_id: projectId,
      name: input.name,
      description: input.description,
      graph: JSON.stringify(graph),
      variables: JSON.stringify(variables),
      settings: JSON.stringify(settings),
      preview_asset_id: previewAssetOf(graph),
    })
    .returningAll()
    .executeTakeFirstOrThrow()
  return summaryOf(templateOf(row, userId))
}

/**
 * Deletes template `templateId` of `userId`'s (issue 42 item 2): its owner only.
 * @throws AppError 404 for a builtin template, another person's, or one that does not exist.
 */
export async function deleteTemplate(
  db: Kysely<DB>,
  { userId, templateId }: { userId: number; templateId: number },
): Promise<void> {
  const deleted = await db
    .deleteFrom('templates')
    .where('id', '=', templateId)
    .where('owner_id', '=', userId)
    .executeTakeFirst()
  if (deleted.numDeletedRows === 0n) throw templateNotFound()
}

/** A builtin preview's size for each format, in pixels: small, for a gallery card. */
const PREVIEW_SIZES = {
  '16:9': { width: 640, height: 360 },
  '9:16': { width: 360, height: 640 },
  '1:1': { width: 480, height: 480 },
} as const
/** The seed of every builtin preview: the same picture on every call and every process. */
const PREVIEW_SEED = 42
/** Builtin previews drawn, by template key (each is a pure function of the template's data). */
const builtinPreviews = new Map<string, Promise<Uint8Array>>()

/**
 * The preview frame of template `templateId` (issue 42 item 2): a builtin one's drawn offline
 * by the builtin image provider from the template's example values (the same bytes every
 * time), a saved one's the picture it was saved with.
 * @throws AppError 404 for a template `userId` may not use, or one without a preview (or
 *   whose picture is gone).
 */
export async function templatePreview(
  deps: Pick<AppDeps, 'db' | 'assets'>,
  { userId, templateId }: { userId: number; templateId: number },
): Promise<{ bytes: Uint8Array; mimeType: string }> {
  const template = await getTemplate(deps.db, { userId, templateId })
  const builtin = BUILTIN_TEMPLATES.find((b) => b.key === template.builtinKey)
  if (builtin) {
    const examples = Object.fromEntries(template.variables.map((v) => [v.name, v.example]))
    const topic = fillPlaceholders(builtin.topic, examples)
    const character = fillPlaceholders(builtin.settings.character ?? '', examples)
    const prompt = character ? `${character}. ${topic}` : topic
    const { width, height } = PREVIEW_SIZES[builtin.settings.preset]
    let drawn = builtinPreviews.get(builtin.key)
    if (!drawn) {
      drawn = renderStoryboardFrame(prompt, width, height, PREVIEW_SEED)
      drawn.catch(() => builtinPreviews.delete(builtin.key))
      builtinPreviews.set(builtin.key, drawn)
    }
    return { bytes: await drawn, mimeType: 'image/png' }
  }
  if (!template.previewAssetId) throw templateNotFound()
  const asset = await deps.db
    .selectFrom('assets')
    .select(['storage_key', 'mime_type'])
    .where('id', '=', template.previewAssetId)
    .executeTakeFirst()
  const bytes = asset?.mime_type.startsWith('image/')
    ? await deps.assets.get(asset.storage_key)
    : null
  if (!asset || !bytes) throw templateNotFound()
  return { bytes, mimeType: asset.mime_type }
}

/** The Make video call for the new project's Script Generator, with the template's settings. */
function makeVideoOf(
  projectId: number,
  graph: TemplateGraph,
  settings: TemplateSettings,
  filled: { sceneImageUrl?: string | undefined; character?: string | undefined },
): MakeVideoInput | null {
  const generator = graph.nodes.find((n) => n.type === 'script-generator')
  if (!generator) return null
  return makeVideoInput.parse({
    projectId,
    nodeId: generator.id,
    sceneCount: settings.sceneCount,
    preset: settings.preset,
    targetSeconds: settings.targetSeconds,
    ...(settings.captions ? { captions: settings.captions } : {}),
    ...(settings.animateModelId ? { animate: { modelId: settings.animateModelId } } : {}),
    ...(filled.sceneImageUrl ? { sceneImageUrl: filled.sceneImageUrl } : {}),
    ...(filled.character?.trim() ? { character: filled.character.trim() } : {}),
    ...(settings.voice ? { voice: settings.voice } : {}),
  })
}

/**
 * Makes a new project of `userId`'s from template `templateId` and `values` for its
 * variables (issue 42 item 2; the batch runner, item 3, calls it per row): every value checked
 * first by shared's `templateValueProblems`, each picture read and checked
 * (`readTemplateImages`); then the project created through `createProject` with the graph
 * filled (a reference to a file the caller cannot open left out, as the graph import does;
 * nodes without a place laid out in columns; the Video node's voice the template's), each
 * picture stored as the new project's own asset (within the owner's storage quota), image
 * placeholders and timelines written through the document gateway. Named `name`, else from
 * the template and the first text value (`templateProjectName`).
 * @returns the project's id and name, and the Make video call with the template's settings
 *   (`makeVideo`; null when its graph has no Script Generator).
 * @throws AppError 404 for a template `userId` may not use; 400 naming each refused variable
 *   (`fields`: variable -> words), nothing stored; 413 past the size limit or the storage
 *   quota (nothing kept); 403 for an API token limited to some projects (as `createProject`).
 */
export async function createProjectFromTemplate(
  deps: Pick<AppDeps, 'db' | 'documents' | 'assets'>,
  {
    userId,
    templateId,
    name,
    values,
  }: { userId: number; templateId: number; name?: string | undefined; values: TemplateValues },
): Promise<{ id: number; name: string; makeVideo: MakeVideoInput | null }> {
  const { db, documents } = deps
  const template = await getTemplate(db, { userId, templateId })
  const problems = templateValueProblems(template.variables, values)
  if (problems.length > 0) {
    throw new AppError('BAD_REQUEST', problems.map((p) => p.message).join(' '), {
      fields: Object.fromEntries(problems.map((p) => [p.variable, p.message])),
    })
  }
  const images = await readTemplateImages(deps, {
    userId,
    variables: template.variables,
    values,
  })
  const textValues = Object.fromEntries(
    template.variables.filter((v) => v.kind === 'text').map((v) => [v.name, values[v.name]!]),
  )
  const filled = fillGraph(template.graph, textValues)
  const readable = await readableAssetIds(db, {
    userId,
    assetIds: assetIdsIn(
      filled.nodes.flatMap((n) => Object.values(n.data).filter((v) => typeof v === 'string')),
    ),
  })
  const kept = keepReadableReferences({
    nodes: filled.nodes,
    timelines: filled.timelines,
    readable,
  })
  const imageNames = new Set(images.keys())
  // Fields holding an image placeholder are written once the picture is stored.
  const hasImage = (value: unknown) =>
    typeof value === 'string' && placeholdersIn(value).some((n) => imageNames.has(n))
  const nodes = layOutUnplaced(kept.nodes).map((node) => {
    const data = Object.fromEntries(
      Object.entries(node.data).filter(([, value]) => !hasImage(value)),
    ) as typeof node.data
    if (node.type === 'video' && template.settings.voice) data.voice = template.settings.voice
    return { ...node, data }
  })
  const created = await createProject(db, userId, {
    name: name ?? templateProjectName(template.name, template.variables, values),
    description: template.description,
    nodes,
    connections: dropDuplicateConnections(filled.connections),
  })
  try {
    const urls: Record<string, string> = {}
    for (const [variable, image] of images) {
      const stored = await storeGeneratedImage(db, deps.assets, {
        userId,
        projectId: created.id,
        image,
      })
      urls[variable] = stored.url
    }
    const imageFields = kept.nodes.flatMap((node) =>
      Object.entries(node.data)
        .filter(([, value]) => hasImage(value))
        .map(([key, value]) => ({
          nodeId: node.id,
          key,
          value: fillPlaceholders(String(value), urls),
        })),
    )
    const registers = timelineRegistersOfFile(kept.timelines)
    if (imageFields.length > 0 || registers.length > 0) {
      await documents.transact(created.id, (doc, origin) => {
        const timelines = getTimelinesMap(doc)
        doc.transact(() => {
          for (const [key, value] of registers) timelines.set(key, value)
          for (const field of imageFields) {
            updateNodeData(doc, field.nodeId, { [field.key]: field.value }, origin)
          }
        }, origin)
      })
    }
    const all = { ...textValues, ...urls }
    const sceneImage = template.settings.sceneImage
      ? fillPlaceholders(template.settings.sceneImage, all)
      : undefined
    return {
      id: created.id,
      name: created.name,
      makeVideo: makeVideoOf(created.id, { ...filled, nodes }, template.settings, {
        sceneImageUrl:
          sceneImage && Object.values(urls).includes(sceneImage) ? sceneImage : undefined,
        character: template.settings.character
          ? fillPlaceholders(template.settings.character, all)
          : undefined,
      }),
    }
  } catch (error) {
    await deleteProjectAssets(db, deps.assets, created.id)
    await db.deleteFrom('projects').where('id', '=', created.id).execute()
    await documents.closeDocument(created.id)
    throw error
  }
}
