import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { toast } from '@/hooks/use-toast'
import { QUERY_KEYS } from '@/lib/query-keys'
import { CANVAS_TOASTS } from '../lib/canvas-messages'
import { ProjectSession } from '../lib/project-session'

/**
 * The session of one project (its doc, canvas store and connections), connected while the
 * caller is mounted. Key the caller by project id: a new project gets a new session.
 */
export function useProjectSession(projectId: number): ProjectSession {
  const [session] = useState(() => new ProjectSession(projectId))
  const queryClient = useQueryClient()
  useEffect(() => {
    session.start({
      // Re-reading the user turns an ended session into "signed out" (a 401 gives null),
      // and the route guard sends the person to /auth.
      onUnauthenticated: () => void queryClient.refetchQueries({ queryKey: QUERY_KEYS.user }),
      onLoadFailed: () => toast({ ...CANVAS_TOASTS.loadFailed }),
      onSaveFailed: () => toast({ ...CANVAS_TOASTS.saveFailed }),
    })
    return () => session.stop()
  }, [session, queryClient])
  return session
}
