import type { GenerateImageInput, GenerateImageOutput, Scene } from './ai.ts'
import type { Connection, GraphNode } from './graph.ts'
import { createGraphNode } from './node-defaults.ts'
import { NODE_FOOTPRINTS, type NodeType, storedNodeData } from './nodes/registry.ts'

export { NODE_FOOTPRINTS }

/**
 * Where generation results go on the canvas (spec §4 Canvas behaviour, §9 Canvas), as pure
 * functions shared by the canvas and the job worker that writes results into the document on
 * the server (issue 12), and free-space placement so a result never lands on a node.
 */

/** New result nodes go +350 on x (spec §9). */
export const RESULT_OFFSET_X = 350
/** The scene row sits 550 below the text node (spec §9). */
export const SCENE_ROW_OFFSET_Y = 550
/** Scene nodes are 320 apart (spec §9). */
export const SCENE_SPACING_X = 320
/**
 * Where "Create image generator" puts the generator: below its scene, not 350 to the right,
 * since scenes are only 320 apart and it would cover the next one.
 */
export const IMAGE_GENERATOR_OFFSET_Y = 450

/** The label of the text node a script lands in (spec §4). */
export const GENERATED_SCRIPT_LABEL = 'Generated Script'

/** Nodes and connections to add in one transaction. */
export interface GraphAddition {
  nodes: GraphNode[]
  connections: Connection[]
}

/** The node a result hangs off: its id and where it is. */
export interface PlacementSource {
  id: string
  position: { x: number; y: number }
}

/**
 * Generate Script's result: a text node labelled "Generated Script", 350 to the right of
 * the generator, holding the script, connected generator -> text (spec §4).
 * @param ids the new node's id (`ids[0]`); default a fresh one. The job worker derives it
 *   from the job id so that writing a result twice adds one node.
 */
export function scriptResult(
  generator: PlacementSource,
  script: string,
  now = Date.now(),
  ids: readonly string[] = [],
): GraphAddition {
  const node = createGraphNode(
    'editable-text',
    { x: generator.position.x + RESULT_OFFSET_X, y: generator.position.y },
    [],
    now,
    ids[0],
  )
  node.label = GENERATED_SCRIPT_LABEL
  node.data = { ...node.data, ...storedNodeData('editable-text', { content: script }) }
  return { nodes: [node], connections: [{ source: generator.id, target: node.id }] }
}

/**
 * Generate Scenes' result: "Scene N" nodes (sceneNumber N, narration, visuals) in one row
 * 550 below the text node, 320 apart, starting at the text node's x (scene 1 right under
 * it), each connected text -> scene (spec §4, §9).
 * @param ids the scene nodes' ids, in order; missing ones are fresh.
 */
export function scenesResult(
  textNode: PlacementSource,
  scenes: readonly Scene[],
  now = Date.now(),
  ids: readonly string[] = [],
): GraphAddition {
  const nodes = scenes.map((scene, i) => {
    const n = i + 1
    const node = createGraphNode(
      'scene',
      {
        x: textNode.position.x + i * SCENE_SPACING_X,
        y: textNode.position.y + SCENE_ROW_OFFSET_Y,
      },
      [],
      now,
      ids[i],
    )
    node.label = `Scene ${n}`
    node.data = {
      ...node.data,
      ...storedNodeData('scene', {
        sceneNumber: String(n),
        narration: scene.narration,
        visuals: scene.visuals,
      }),
    }
    return node
  })
  return {
    nodes,
    connections: nodes.map((node) => ({ source: textNode.id, target: node.id })),
  }
}

/**
 * Generate Image's result: an image node 350 to the right of the generator with the image's
 * URL, prompt and size, connected generator -> image (spec §4).
 * @param ids the new node's id (`ids[0]`); default a fresh one.
 */
export function imageResult(
  generator: PlacementSource,
  request: Pick<GenerateImageInput, 'prompt' | 'width' | 'height'>,
  answer: Pick<GenerateImageOutput, 'imageUrl'>,
  now = Date.now(),
  ids: readonly string[] = [],
): GraphAddition {
  const node = createGraphNode(
    'image',
    { x: generator.position.x + RESULT_OFFSET_X, y: generator.position.y },
    [],
    now,
    ids[0],
  )
  node.data = {
    ...node.data,
    ...storedNodeData('image', {
      imageUrl: answer.imageUrl,
      prompt: request.prompt,
      width: request.width,
      height: request.height,
    }),
  }
  return { nodes: [node], connections: [{ source: generator.id, target: node.id }] }
}

/**
 * "Create image generator" on a scene: an image generator 450 below the scene,
 * its prompt copied from the scene's visuals (promptFromScene "true" when there were any),
 * connected scene -> generator. The Nodes Library offers no image generator (spec §2:
 * "created by the product itself"); this is how the product creates one.
 */
export function imageGeneratorForScene(
  scene: PlacementSource & { visuals: string },
  now = Date.now(),
): GraphAddition {
  const node = createGraphNode(
    'image-generator',
    { x: scene.position.x, y: scene.position.y + IMAGE_GENERATOR_OFFSET_Y },
    [],
    now,
  )
  if (scene.visuals.trim() !== '') {
    node.data = {
      ...node.data,
      ...storedNodeData('image-generator', { prompt: scene.visuals, promptFromScene: 'true' }),
    }
  }
  return { nodes: [node], connections: [{ source: scene.id, target: node.id }] }
}

/** Space kept between a placed result and the node it would have touched, in canvas units. */
export const PLACEMENT_GAP = 40

/** Sizes, in canvas units, to use instead of {@link NODE_FOOTPRINTS} for some node types. */
export type NodeSizes = Partial<Record<NodeType, { width: number; height: number }>>

/** An axis-aligned box in canvas units. */
interface Box {
  left: number
  top: number
  right: number
  bottom: number
}

function boxOf(
  node: Pick<GraphNode, 'type' | 'position'>,
  dy = 0,
  sizes: NodeSizes = NODE_FOOTPRINTS,
): Box {
  const size = sizes[node.type] ?? NODE_FOOTPRINTS[node.type]
  return {
    left: node.position.x,
    top: node.position.y + dy,
    right: node.position.x + size.width,
    bottom: node.position.y + dy + size.height,
  }
}

/** True when two boxes share area (touching edges do not count). */
function overlaps(a: Box, b: Box): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom
}

/**
 * Moves `addition`'s nodes together straight down, as little as needed, so that none of them
 * covers a node of `existing` (by {@link NODE_FOOTPRINTS}); connections are kept. Nodes of
 * `existing` with an id of the addition are ignored (writing the same result again). The
 * search steps below the lowest obstacle in the way each round, so it ends. `sizes` gives the
 * addition's nodes of some types a size of their own (a made video's portrait pictures).
 * @returns a new addition (the input is not changed); the same positions when nothing is in
 *   the way.
 * @see spec §4 (results placed beside their source); issue 12 (never on top of a node)
 */
export function placeInFreeSpace(
  addition: GraphAddition,
  existing: readonly Pick<GraphNode, 'id' | 'type' | 'position'>[],
  sizes: NodeSizes = {},
): GraphAddition {
  const own = new Set(addition.nodes.map((n) => n.id))
  const obstacles = existing.filter((n) => !own.has(n.id)).map((n) => boxOf(n))
  let dy = 0
  // Each round clears at least one (new node, obstacle) pair for good: dy only grows.
  for (let round = 0; round <= addition.nodes.length * obstacles.length; round++) {
    let next = dy
    for (const node of addition.nodes) {
      const box = boxOf(node, dy, sizes)
      for (const obstacle of obstacles) {
        if (overlaps(box, obstacle)) {
          next = Math.max(next, dy + obstacle.bottom + PLACEMENT_GAP - box.top)
        }
      }
    }
    if (next === dy) break
    dy = next
  }
  if (dy === 0) return addition
  return {
    nodes: addition.nodes.map((n) => ({
      ...n,
      position: { x: n.position.x, y: n.position.y + dy },
    })),
    connections: addition.connections,
  }
}

/** A node as free-space search sees it: where it is and, when known, its measured size. */
export interface PlacedNode extends Pick<GraphNode, 'id' | 'type' | 'position'> {
  /** The size the canvas measured, in canvas units; {@link NODE_FOOTPRINTS} when absent. */
  size?: { width: number; height: number } | undefined
}

/** Free-space search steps this far, in canvas units: the placement gap. */
export const FREE_SPOT_STEP = PLACEMENT_GAP
/** Free-space search looks this many steps around the wanted place before giving up. */
export const FREE_SPOT_MAX_RINGS = 60

/**
 * The nearest place for `addition` (moved as a block, its connections kept) where none of
 * its nodes overlaps a node of `existing` (with {@link PLACEMENT_GAP} around each): the
 * wanted place itself when free, else the closest candidate on a grid of
 * {@link FREE_SPOT_STEP} around it, ring by ring, and within a ring in reading order (top
 * row first, left to right). Past {@link FREE_SPOT_MAX_RINGS} rings it falls back to
 * {@link placeInFreeSpace} (straight down). Nodes of `existing` with an id of the addition
 * are ignored.
 * @returns a new addition (the input is not changed).
 * @see issue 14 item 2 (new nodes never land on others)
 */
export function placeAtNearestFreeSpot(
  addition: GraphAddition,
  existing: readonly PlacedNode[],
): GraphAddition {
  const own = new Set(addition.nodes.map((n) => n.id))
  const obstacles = existing
    .filter((n) => !own.has(n.id))
    .map((n) => {
      const size = n.size ?? NODE_FOOTPRINTS[n.type]
      return {
        left: n.position.x - PLACEMENT_GAP,
        top: n.position.y - PLACEMENT_GAP,
        right: n.position.x + size.width + PLACEMENT_GAP,
        bottom: n.position.y + size.height + PLACEMENT_GAP,
      }
    })
  const free = (dx: number, dy: number) =>
    addition.nodes.every((node) => {
      const box = boxOf(
        { type: node.type, position: { x: node.position.x + dx, y: node.position.y } },
        dy,
      )
      return obstacles.every((o) => !overlaps(box, o))
    })
  const moved = (dx: number, dy: number): GraphAddition =>
    dx === 0 && dy === 0
      ? addition
      : {
          nodes: addition.nodes.map((n) => ({
            ...n,
            position: { x: n.position.x + dx, y: n.position.y + dy },
          })),
          connections: addition.connections,
        }
  for (let ring = 0; ring <= FREE_SPOT_MAX_RINGS; ring++) {
    for (let row = -ring; row <= ring; row++) {
      const edgeRow = Math.abs(row) === ring
      for (let col = -ring; col <= ring; col++) {
        if (!edgeRow && Math.abs(col) !== ring) continue
        const dx = col * FREE_SPOT_STEP
        const dy = row * FREE_SPOT_STEP
        if (free(dx, dy)) return moved(dx, dy)
      }
    }
  }
  return placeInFreeSpace(addition, existing)
}
