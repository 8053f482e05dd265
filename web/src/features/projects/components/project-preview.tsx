import { NODE_FOOTPRINTS, type NodeType, type ProjectPreview } from '@reelgraph/shared'
import { memo } from 'react'

/** Each node type's colour in a preview: the accent of its header on the canvas. */
const NODE_FILL: Record<NodeType, string> = {
  'script-generator': '#a78bfa',
  'editable-text': '#fbbf24',
  scene: '#38bdf8',
  'image-generator': '#34d399',
  image: '#fb7185',
  video: '#8b5cf6',
  'video-generator': '#2dd4bf',
  clip: '#f472b6',
}

/** Canvas units of margin around the nodes, so the outermost ones do not touch the edge. */
const MARGIN = 60

/**
 * A project card's small picture of its graph (issue 14): each node as a rounded box of its
 * type's colour where it sits on the canvas, scaled to fit. Decorative (the card says how
 * many nodes there are); an empty project shows an empty frame.
 */
export const ProjectPreviewImage = memo(function ProjectPreviewImage({
  nodes,
}: {
  nodes: ProjectPreview
}) {
  if (nodes.length === 0) {
    return <div className="h-24 rounded-md border border-dashed bg-muted/30" aria-hidden />
  }
  const left = Math.min(...nodes.map((n) => n.x)) - MARGIN
  const top = Math.min(...nodes.map((n) => n.y)) - MARGIN
  const right = Math.max(...nodes.map((n) => n.x + NODE_FOOTPRINTS[n.type].width)) + MARGIN
  const bottom = Math.max(...nodes.map((n) => n.y + NODE_FOOTPRINTS[n.type].height)) + MARGIN
  return (
    <svg
      aria-hidden
      data-testid="project-preview"
      className="h-24 w-full rounded-md border bg-muted/30"
      viewBox={`${left} ${top} ${right - left} ${bottom - top}`}
      preserveAspectRatio="xMidYMid meet"
    >
      {nodes.map((n, i) => (
        <rect
          // Positions repeat only for nodes stacked on each other; the index keeps keys apart.
          key={`${i}-${n.x}-${n.y}`}
          x={n.x}
          y={n.y}
          width={NODE_FOOTPRINTS[n.type].width}
          height={NODE_FOOTPRINTS[n.type].height}
          rx={24}
          fill={NODE_FILL[n.type]}
          fillOpacity={0.75}
        />
      ))}
    </svg>
  )
})
