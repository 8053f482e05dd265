import type { DB } from '@reelgraph/db'
import {
  createGraphNode,
  type GraphFileTimelines,
  type GraphNode,
  storedNodeData,
  type TemplateSettings,
  type TemplateVariable,
} from '@reelgraph/shared'
import type { Kysely } from 'kysely'

/**
 * The builtin templates (issue 42 item 2): four that work offline (the builtin writer, the
 * storyboard frames, the offline motion draft and eSpeak NG), defined as data and seeded into
 * `templates` at start-up by their `builtin_key` (an upsert, so each keeps its id across
 * restarts and processes). Each graph is one Script Generator with the topic placeholder and
 * the length; Make video builds the rest from the template's settings.
 */

/** The catalog's offline motion draft (`builtin-motion.ts`): image to video, every format. */
export const BUILTIN_MOTION_MODEL_ID = 'builtin:motion-draft'

/** Where a builtin's Script Generator stands, in canvas units. */
const GENERATOR_POSITION = { x: 80, y: 80 }
/**
 * A builtin graph's Script Generator id (shared's `NODE_ID_PATTERN`): fixed, so every project
 * made from it names it the same.
 */
const GENERATOR_ID = 'script-generator-1-template'

/** A builtin template as data. */
export interface BuiltinTemplate {
  /** Its stable key (`builtin_key`). */
  key: string
  name: string
  description: string
  /** The Script Generator's topic, with its placeholder(s). */
  topic: string
  variables: TemplateVariable[]
  settings: TemplateSettings
}

/** The four builtin templates, in the gallery's order. */
export const BUILTIN_TEMPLATES: readonly BuiltinTemplate[] = [
  {
    key: 'explainer',
    name: 'Explainer',
    description: 'A one-minute 16:9 explainer in three scenes, with classic captions.',
    topic: '{{topic}}',
    variables: [
      { name: 'topic', kind: 'text', label: 'Topic', example: 'How lighthouses guide ships' },
    ],
    settings: {
      preset: '16:9',
      targetSeconds: 60,
      sceneCount: 3,
      voice: '',
      captions: { style: 'classic' },
    },
  },
  {
    key: 'vertical-short',
    name: 'Vertical short',
    description: 'A 30-second 9:16 short in three scenes, with bold word captions.',
    topic: '{{topic}}',
    variables: [
      { name: 'topic', kind: 'text', label: 'Topic', example: 'How honeybees make honey' },
    ],
    settings: {
      preset: '9:16',
      targetSeconds: 30,
      sceneCount: 3,
      voice: '',
      captions: { style: 'bold' },
    },
  },
  {
    key: 'product-clip',
    name: 'Product clip',
    description:
      'A 15-second 9:16 clip of your product: your picture in every scene, animated (image to video).',
    topic: '{{product_name}}',
    variables: [
      {
        name: 'product_name',
        kind: 'text',
        label: 'Product name',
        example: 'A handmade ceramic coffee mug',
      },
      { name: 'image', kind: 'image', label: 'Image', example: '' },
    ],
    settings: {
      preset: '9:16',
      targetSeconds: 15,
      sceneCount: 2,
      voice: '',
      captions: { style: 'bold' },
      animateModelId: BUILTIN_MOTION_MODEL_ID,
      sceneImage: '{{image}}',
    },
  },
  {
    key: 'story',
    name: 'Story',
    description: 'A one-minute 16:9 story in four scenes, with one character in every scene.',
    topic: '{{topic}}',
    variables: [
      {
        name: 'topic',
        kind: 'text',
        label: 'Topic',
        example: 'A walk through the autumn forest',
      },
      {
        name: 'character',
        kind: 'text',
        label: 'Character',
        example: 'Pip, a small red fox in a blue scarf',
      },
    ],
    settings: {
      preset: '16:9',
      targetSeconds: 60,
      sceneCount: 4,
      voice: '',
      captions: { style: 'classic' },
      character: '{{character}}',
    },
  },
]

/** A builtin's graph: its Script Generator with the topic placeholder and the length. */
export function builtinGraph(template: BuiltinTemplate): {
  nodes: GraphNode[]
  connections: []
  timelines: GraphFileTimelines
} {
  const generator = createGraphNode('script-generator', GENERATOR_POSITION, [], 0, GENERATOR_ID)
  generator.data = {
    ...generator.data,
    ...storedNodeData('script-generator', {
      topic: template.topic,
      targetSeconds: template.settings.targetSeconds,
    }),
  }
  return { nodes: [generator], connections: [], timelines: {} }
}

/**
 * Writes the builtin templates into `templates` (at start-up, as the billing catalog is
 * seeded): inserted by `builtin_key`, or brought up to date in place, so each keeps its id.
 */
export async function seedBuiltinTemplates(db: Kysely<DB>): Promise<void> {
  for (const template of BUILTIN_TEMPLATES) {
    const row = {
      builtin_key: template.key,
      name: template.name,
      description: template.description,
      graph: JSON.stringify(builtinGraph(template)),
      variables: JSON.stringify(template.variables),
      settings: JSON.stringify(template.settings),
    }
    await db
      .insertInto('templates')
      .values(row)
      .onConflict((oc) =>
        oc.column('builtin_key').doUpdateSet({
          name: row.name,
          description: row.description,
          graph: row.graph,
          variables: row.variables,
          settings: row.settings,
        }),
      )
      .execute()
  }
}
