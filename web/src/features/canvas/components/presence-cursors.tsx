import { useStore, ViewportPortal } from '@xyflow/react'
import { memo } from 'react'
import { usePresence } from '../hooks/use-presence'
import type { RemotePresence } from '../lib/presence'

const Cursor = memo(function Cursor({
  peer,
  x,
  y,
  scale,
}: {
  peer: RemotePresence
  x: number
  y: number
  scale: number
}) {
  const { color, name } = peer.user
  return (
    <div
      className="pointer-events-none absolute top-0 left-0 origin-top-left"
      style={{ transform: `translate(${x}px, ${y}px) scale(${scale})` }}
      data-testid="presence-cursor"
    >
      <svg width="16" height="20" viewBox="0 0 16 20" className="drop-shadow-sm">
        <path d="M1 1 L1 16 L5 12 L8 19 L11 18 L8 11 L14 11 Z" fill={color} stroke="white" />
      </svg>
      <span
        className="ml-3 block w-max max-w-40 truncate rounded px-1.5 py-0.5 font-medium text-white text-xs"
        style={{ backgroundColor: color }}
      >
        {name}
      </span>
    </div>
  )
})

const zoomOf = (s: { transform: [number, number, number] }) => s.transform[2]

/**
 * The other clients' cursors, as small labelled arrows in flow coordinates (they move with
 * the viewport, and keep one size at any zoom). Decorative: hidden from assistive tech.
 */
export function PresenceCursors() {
  const peers = usePresence()
  const zoom = useStore(zoomOf)
  return (
    <ViewportPortal>
      <div aria-hidden className="pointer-events-none">
        {peers.map((peer) =>
          peer.cursor ? (
            <Cursor
              key={peer.clientId}
              peer={peer}
              x={peer.cursor.x}
              y={peer.cursor.y}
              scale={1 / zoom}
            />
          ) : null,
        )}
      </div>
    </ViewportPortal>
  )
}
