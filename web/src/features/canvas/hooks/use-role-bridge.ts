import type { ProjectRole } from '@reelgraph/shared'
import { useEffect } from 'react'
import { useCanvasActions } from './use-canvas-actions'

/**
 * Hands the caller's role from the project's REST answer to the canvas store, which uses
 * it until the sync connection's scope is known (issue 6 item 1).
 */
export function useRoleBridge(role: ProjectRole | null): void {
  const { setAccess } = useCanvasActions()
  useEffect(() => {
    if (role) setAccess({ role })
  }, [role, setAccess])
}
