import {
  type ChainRow,
  fillPlaceholders,
  type Connection,
  type GraphFileTimelines,
  type GraphNode,
  layoutColumns,
  nodeDataProblem,
  placeholdersIn,
  readNodeData,
  SCENE_COUNT_MAX,
  SCENE_COUNT_MIN,
  TARGET_SECONDS_DEFAULT,
  targetLengthProblem,
  type TemplateFieldMark,
  type TemplateSettings,
  templateSettingsSchema,
  type TemplateVariable,
  templateVariableKind,
  VIDEO_PRESET_NAMES,
} from '@reelgraph/shared'
import { AppError } from '../../lib/app-error.ts'

/**
 * A template's graph (issue 42 item 2), pure: what a graph file's body becomes when saved as
 * a template (marks applied, variables and settings read from it) and when a project is made
 * from one (placeholders filled, nodes without a place laid out in columns).
 */

/** A template's graph: a graph file's body (`graph-file.ts`). */
export interface TemplateGraph {
  nodes: GraphNode[]
  connections: Connection[]
  timelines: GraphFileTimelines
}

/**
 * `nodes` with each mark's field replaced by `{{name}}` (the template's copy only).
 * @throws AppError 400 naming a mark whose node is not in the graph, or whose field cannot
 *   hold text.
 */
export function applyMarks(
  nodes: readonly GraphNode[],
  marks: readonly TemplateFieldMark[],
): GraphNode[] {
  const byId = new Map(nodes.map((n) => [n.id, { ...n, data: { ...n.data } }]))
  for (const mark of marks) {
    const node = byId.get(mark.nodeId)
    if (!node) {
      throw new AppError('BAD_REQUEST', `The project has no node "${mark.nodeId}" to mark.`, {
        fields: { marks: `No node "${mark.nodeId}".` },
      })
    }
    const value = `{{${mark.name}}}`
    if (nodeDataProblem(node.type, mark.field, value)) {
      throw new AppError(
        'BAD_REQUEST',
        `The field "${mark.field}" of node "${mark.nodeId}" cannot hold text, so it cannot be the variable {{${mark.name}}}.`,
        { fields: { marks: `"${mark.field}" holds no text.` } },
      )
    }
    node.data[mark.field] = value
  }
  return nodes.map((n) => byId.get(n.id)!)
}

/** "product_name" -> "Product name". */
export function variableLabel(name: string): string {
  const words = name.split('_').filter(Boolean).join(' ')
  return words.charAt(0).toUpperCase() + words.slice(1)
}

/**
 * Every text of a template: its nodes' string fields (the Script Generator's first), its
 * timelines' and its settings' strings.
 */
function templateTexts(graph: TemplateGraph, settings: TemplateSettings): string[] {
  const texts: string[] = []
  // The Script Generator's fields first: its topic is what a person fills in first.
  const nodes = [
    ...graph.nodes.filter((n) => n.type === 'script-generator'),
    ...graph.nodes.filter((n) => n.type !== 'script-generator'),
  ]
  for (const node of nodes) {
    for (const value of Object.values(node.data)) if (typeof value === 'string') texts.push(value)
  }
  for (const timeline of Object.values(graph.timelines)) {
    for (const value of Object.values(timeline.settings)) {
      if (typeof value === 'string') texts.push(value)
    }
  }
  if (settings.sceneImage) texts.push(settings.sceneImage)
  if (settings.character) texts.push(settings.character)
  return texts
}

/**
 * The variables a template has: the placeholders of its texts in order of first appearance,
 * each of the kind its name says (`templateVariableKind`), labelled from its name.
 */
export function variablesOf(graph: TemplateGraph, settings: TemplateSettings): TemplateVariable[] {
  const names: string[] = []
  for (const text of templateTexts(graph, settings)) {
    for (const name of placeholdersIn(text)) if (!names.includes(name)) names.push(name)
  }
  return names.map((name) => ({
    name,
    kind: templateVariableKind(name),
    label: variableLabel(name),
    example: '',
  }))
}

/**
 * A template's settings as its graph says them: the length from its (first) Script
 * Generator, the format and the voice from its Video node, the scene count from its scenes
 * (3 without any; fewer when the length has no room for them), captions classic.
 */
export function settingsOf(nodes: readonly GraphNode[]): TemplateSettings {
  const generator = nodes.find((n) => n.type === 'script-generator')
  const video = nodes.find((n) => n.type === 'video')
  const targetSeconds = generator
    ? readNodeData('script-generator', generator.data).targetSeconds
    : TARGET_SECONDS_DEFAULT
  const videoData = video ? readNodeData('video', video.data) : null
  const preset =
    videoData && (VIDEO_PRESET_NAMES as readonly string[]).includes(videoData.preset)
      ? videoData.preset
      : '16:9'
  const scenes = nodes.filter((n) => n.type === 'scene').length
  let sceneCount = Math.min(SCENE_COUNT_MAX, Math.max(SCENE_COUNT_MIN, scenes || 3))
  while (sceneCount > SCENE_COUNT_MIN && targetLengthProblem({ targetSeconds, sceneCount })) {
    sceneCount -= 1
  }
  return templateSettingsSchema.parse({
    preset,
    targetSeconds,
    sceneCount,
    voice: videoData?.voice ?? '',
    captions: { style: 'classic' },
  })
}

/** `graph` with every text placeholder filled from `values` (placeholders without one kept). */
export function fillGraph(
  graph: TemplateGraph,
  values: Readonly<Record<string, string>>,
): TemplateGraph {
  const fill = (value: unknown) =>
    typeof value === 'string' ? fillPlaceholders(value, values) : value
  const nodes = graph.nodes.map((node) => ({
    ...node,
    data: Object.fromEntries(
      Object.entries(node.data).map(([key, value]) => [key, fill(value)]),
    ) as GraphNode['data'],
  }))
  const timelines: GraphFileTimelines = {}
  for (const [videoId, timeline] of Object.entries(graph.timelines)) {
    timelines[videoId] = {
      settings: Object.fromEntries(
        Object.entries(timeline.settings).map(([key, value]) => [
          key,
          fill(value) as string | number | boolean,
        ]),
      ),
      cuts: timeline.cuts,
    }
  }
  return { nodes, connections: graph.connections, timelines }
}

/** Whether `position` is a point on the canvas. */
function placed(position: unknown): boolean {
  const p = position as { x?: unknown; y?: unknown } | undefined
  return Number.isFinite(p?.x) && Number.isFinite(p?.y)
}

/**
 * `nodes`, with those that have no position laid out by shared's `layoutColumns` (issue 42
 * item 5): script generator, script, one row per scene (by scene number), the Video node;
 * nodes of other types go below, one per row. Nodes with a position stay where they are.
 */
export function layOutUnplaced(nodes: readonly GraphNode[]): GraphNode[] {
  if (nodes.every((n) => placed(n.position))) return [...nodes]
  const unplaced = nodes.filter((n) => !placed(n.position))
  const first = (type: GraphNode['type']) => unplaced.find((n) => n.type === type)?.id
  const scenes = unplaced
    .filter((n) => n.type === 'scene')
    .sort(
      (a, b) =>
        Number(readNodeData('scene', a.data).sceneNumber) -
        Number(readNodeData('scene', b.data).sceneNumber),
    )
  const rows: ChainRow[] = scenes.map((s) => ({ scene: s.id }))
  const roles = new Set([
    first('script-generator'),
    first('editable-text'),
    first('video'),
    ...scenes.map((s) => s.id),
  ])
  for (const node of unplaced) {
    if (roles.has(node.id)) continue
    const role =
      node.type === 'image-generator'
        ? 'imageGenerator'
        : node.type === 'image'
          ? 'image'
          : node.type === 'video-generator'
            ? 'videoGenerator'
            : node.type === 'clip'
              ? 'clip'
              : 'scene'
    rows.push({ [role]: node.id })
  }
  const at = layoutColumns(
    {
      scriptGenerator: first('script-generator'),
      script: first('editable-text'),
      rows,
      video: first('video'),
    },
    { origin: { x: 0, y: 0 } },
  )
  return nodes.map((n) =>
    placed(n.position) ? n : { ...n, position: at.get(n.id) ?? { x: 0, y: 0 } },
  )
}
