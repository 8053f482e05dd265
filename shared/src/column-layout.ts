import type { NodeType } from './nodes/registry.ts'
import { NODE_FOOTPRINTS, type NodeSizes, PLACEMENT_GAP, RESULT_OFFSET_X } from './placement.ts'

/**
 * The column layout of a graph built for a person to read (issue 42 item 5): what "Make video"
 * (and the templates) lay out, left to right in columns — the script (its generator and its
 * text node), the scenes stacked one under the other, each scene's image (generator, then
 * result) on the scene's row, its clip (Video Generator, then Clip) on the same row, and the
 * Video node centred on the rows — so every connection of the chain runs right and short.
 * A pure function of the chain's nodes by role and their sizes.
 */

/** Space between two columns (and between a generator and its result), in canvas units. */
export const LAYOUT_COLUMN_GAP = 2 * PLACEMENT_GAP
/** Space between two scene rows, in canvas units. */
export const LAYOUT_ROW_GAP = PLACEMENT_GAP

/** What a scene's row holds, by role: each a node id, absent when the row has none. */
export interface ChainRow {
  scene?: string | undefined
  imageGenerator?: string | undefined
  image?: string | undefined
  videoGenerator?: string | undefined
  clip?: string | undefined
}

/** A chain's nodes by role (node ids); every role is optional. */
export interface ChainByRole {
  /** The Script Generator: it stays where it is, at the layout's `origin`. */
  scriptGenerator?: string | undefined
  /** The script's text node, beside its generator. */
  script?: string | undefined
  /** One row per scene, in scene order, top to bottom. */
  rows: readonly ChainRow[]
  /** The Video node, in the last column. */
  video?: string | undefined
}

/** A point or a size in canvas units. */
type Point = { x: number; y: number }
type Size = { width: number; height: number }

/** Options of {@link layoutColumns}. */
export interface ColumnLayoutOptions {
  /**
   * The top-left of the first column, in canvas units: where the Script Generator is (it is
   * not moved), or where the first node of the chain goes when there is none.
   */
  origin: Point
  /** Sizes to use instead of {@link NODE_FOOTPRINTS} for some types (e.g. portrait images). */
  sizes?: NodeSizes | undefined
}

/** The horizontal slots, left to right, with the node type each holds. */
const SLOTS = [
  ['scriptGenerator', 'script-generator'],
  ['script', 'editable-text'],
  ['scene', 'scene'],
  ['imageGenerator', 'image-generator'],
  ['image', 'image'],
  ['videoGenerator', 'video-generator'],
  ['clip', 'clip'],
  ['video', 'video'],
] as const satisfies readonly (readonly [string, NodeType])[]

type Slot = (typeof SLOTS)[number][0]
type RowRole = keyof ChainRow

const ROW_ROLES: readonly RowRole[] = ['scene', 'imageGenerator', 'image', 'videoGenerator', 'clip']

/**
 * Where each node of `chain` goes (its top-left, in canvas units, whole numbers), by id:
 * - columns left to right: Script Generator, script text node (spec §4's 350 to the right of
 *   its generator), scenes, image generators, images, Video Generators, Clips, the Video node;
 *   a column no node of the chain fills takes no room; each column is as wide as its type's
 *   footprint, {@link LAYOUT_COLUMN_GAP} apart;
 * - one row per scene, as tall as its tallest node, {@link LAYOUT_ROW_GAP} apart, each node
 *   centred on its row's middle line (the connection handles sit half-way down a node, so a
 *   row's connections run straight);
 * - the first row's middle line is the Script Generator's (else the script's), so generator,
 *   script and the first scene's nodes stand on one line; the script's nodes are centred on
 *   it; the Video node is centred on the rows (on that line when there are none).
 * Nothing overlaps by the footprints (`sizes` where given), whatever the chain. The Script
 * Generator, when given, is placed at `origin`.
 * @see issue 42 item 5 (a graph a person can read)
 */
export function layoutColumns(
  chain: ChainByRole,
  { origin, sizes = {} }: ColumnLayoutOptions,
): Map<string, Point> {
  const sizeOf = (type: NodeType): Size => sizes[type] ?? NODE_FOOTPRINTS[type]
  const present = (slot: Slot): boolean =>
    slot === 'scriptGenerator' || slot === 'script' || slot === 'video'
      ? chain[slot] !== undefined
      : chain.rows.some((row) => row[slot] !== undefined)

  // Columns: x of each slot that is used.
  const columnX = new Map<Slot, number>()
  let x = origin.x
  let previous: Slot | null = null
  for (const [slot, type] of SLOTS) {
    if (!present(slot)) continue
    if (previous !== null) {
      const gap =
        previous === 'scriptGenerator' && slot === 'script'
          ? RESULT_OFFSET_X - sizeOf('script-generator').width
          : LAYOUT_COLUMN_GAP
      x += gap
    }
    columnX.set(slot, x)
    x += sizeOf(type).width
    previous = slot
  }
  const typeOf = new Map<Slot, NodeType>(SLOTS)

  // Rows: each as tall as its tallest node; the first centred on the script's line.
  const rowHeights = chain.rows.map((row) =>
    Math.max(
      0,
      ...ROW_ROLES.filter((r) => row[r] !== undefined).map((r) => sizeOf(typeOf.get(r)!).height),
    ),
  )
  const lead =
    chain.scriptGenerator !== undefined
      ? 'script-generator'
      : chain.script !== undefined
        ? 'editable-text'
        : null
  const line =
    origin.y +
    (lead !== null
      ? sizeOf(lead).height / 2
      : rowHeights.length > 0
        ? rowHeights[0]! / 2
        : sizeOf('video').height / 2)
  const rowTops: number[] = []
  let top = line - (rowHeights[0] ?? 0) / 2
  for (const height of rowHeights) {
    rowTops.push(top)
    top += height + LAYOUT_ROW_GAP
  }
  const rowsMiddle = rowHeights.length > 0 ? (rowTops[0]! + top - LAYOUT_ROW_GAP) / 2 : line

  const at = new Map<string, Point>()
  const put = (id: string | undefined, slot: Slot, middle: number) => {
    if (id === undefined) return
    const { height } = sizeOf(typeOf.get(slot)!)
    at.set(id, { x: Math.round(columnX.get(slot)!), y: Math.round(middle - height / 2) })
  }
  if (chain.scriptGenerator !== undefined) at.set(chain.scriptGenerator, { ...origin })
  put(chain.script, 'script', line)
  chain.rows.forEach((row, i) => {
    const middle = rowTops[i]! + rowHeights[i]! / 2
    for (const role of ROW_ROLES) put(row[role], role, middle)
  })
  put(chain.video, 'video', rowsMiddle)
  return at
}
