import {
  CANVAS_ASSUMED_NODE_WIDTH,
  type ConnectionPoints,
  IMAGE_NODE_MAX_WIDTH_PX,
  IMAGE_NODE_MIN_WIDTH_PX,
  NODE_MAX_WIDTH_PX,
  NODE_MIN_WIDTH_PX,
} from '@reelgraph/shared'
import { Handle, Position, useNodeId } from '@xyflow/react'
import type { LucideIcon } from 'lucide-react'
import type { ReactNode } from 'react'
import { cn } from '@/lib/utils'
import { useCompactNodes } from '../hooks/use-compact-nodes'
import { useRemoteSelectionColors } from '../hooks/use-presence'

const HANDLE_CLASS = 'size-3! border-2! border-background! bg-primary!'

/** Props of {@link NodeShell}. */
export interface NodeShellProps {
  /** The node's label, its header. */
  label: string
  icon: LucideIcon
  selected: boolean
  connectionPoints: ConnectionPoints
  /** Image nodes are wider (spec §9: 320 to 400 px instead of 280 to 320). */
  wide?: boolean
  /** Header accent: one colour per node type. */
  accent: string
  /**
   * Zoomed far out (see `CANVAS_COMPACT_NODE_ZOOM`), a node with a summary shows it in large
   * type instead of the fields; the handles stay, so connections still attach.
   */
  summary?: string
  children: ReactNode
}

/**
 * The frame every node shares: a header with the icon and label (the drag handle; the
 * fields inside carry `nodrag`), the body, and the handles its connection points allow:
 * an input on the left, an output on the right.
 */
export function NodeShell({
  label,
  icon: Icon,
  selected,
  connectionPoints,
  wide,
  accent,
  summary,
  children,
}: NodeShellProps) {
  const compact = useCompactNodes() && summary !== undefined
  const input = connectionPoints === 'input' || connectionPoints === 'both'
  const output = connectionPoints === 'output' || connectionPoints === 'both'
  // Selected by someone else: an outline in their colour (a second user's as a halo).
  const remote = useRemoteSelectionColors(useNodeId())
  const size = wide
    ? { minWidth: IMAGE_NODE_MIN_WIDTH_PX, maxWidth: IMAGE_NODE_MAX_WIDTH_PX }
    : { width: CANVAS_ASSUMED_NODE_WIDTH, minWidth: NODE_MIN_WIDTH_PX, maxWidth: NODE_MAX_WIDTH_PX }
  return (
    <div
      className={cn(
        'rounded-xl border bg-card text-card-foreground shadow-sm transition-shadow',
        selected && 'shadow-md ring-2 ring-primary',
      )}
      style={remote.length > 0 ? { ...size, ...remoteOutline(remote) } : size}
      data-remote-selected={remote.length > 0 ? remote.join(' ') : undefined}
    >
      <div className={cn('flex items-center gap-2 rounded-t-xl border-b px-3 py-2', accent)}>
        <Icon className="size-4 shrink-0" aria-hidden />
        <span className="truncate font-semibold text-sm">{label}</span>
      </div>
      {compact ? (
        <p className="line-clamp-4 min-h-32 p-3 font-medium text-2xl text-muted-foreground">
          {summary || 'Empty'}
        </p>
      ) : (
        <div className="grid gap-3 p-3">{children}</div>
      )}
      {input ? (
        <Handle
          type="target"
          position={Position.Left}
          className={HANDLE_CLASS}
          // aria-label needs a role (axe): a handle is a control, a click on an output then on
          // an input connects them (React Flow's connectOnClick).
          role="button"
          aria-label={`${label} input`}
        />
      ) : null}
      {output ? (
        <Handle
          type="source"
          position={Position.Right}
          className={HANDLE_CLASS}
          role="button"
          aria-label={`${label} output`}
        />
      ) : null}
    </div>
  )
}

function remoteOutline(colors: readonly string[]) {
  return {
    outline: `2px solid ${colors[0]}`,
    outlineOffset: 3,
    boxShadow: colors[1] ? `0 0 0 7px ${colors[1]}` : undefined,
  }
}
