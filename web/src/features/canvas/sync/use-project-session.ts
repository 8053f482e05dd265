import { SERVER_BUSY_MESSAGE } from '@reelgraph/shared'
import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { toast } from '@/hooks/use-toast'
import { projectQueryKey } from '@/lib/projects-api'
import { projectMembersKey, QUERY_KEYS } from '@/lib/query-keys'
import { UNREACHABLE_MESSAGE } from '@/stores/save-status'
import { ACCESS_TOASTS } from '../lib/access'
import { CANVAS_TOASTS } from '../lib/canvas-messages'
import { ProjectSession } from './project-session'

/**
 * The session of one project (its doc, canvas store and connections), connected while the
 * caller is mounted. Key the caller by project id: a new project gets a new session. When
 * the sync server refuses a change, the session drops its doc and this hook opens the
 * project again with a new one (issue 11): key what shows it by `session.key`.
 */
export function useProjectSession(projectId: number): ProjectSession {
  const [session, setSession] = useState(() => new ProjectSession(projectId))
  const queryClient = useQueryClient()
  useEffect(() => {
    session.start({
      // Re-reading the user turns an ended session into "signed out" (a 401 gives null),
      // and the route guard sends the person to /auth.
      onUnauthenticated: () => void queryClient.refetchQueries({ queryKey: QUERY_KEYS.user }),
      onLoadFailed: () => toast({ ...CANVAS_TOASTS.loadFailed }),
      onSaveFailed: () => toast({ ...CANVAS_TOASTS.saveFailed }),
      // The pill's sentence, as a toast once per outage (issue 11).
      onUnreachable: () => toast({ ...UNREACHABLE_MESSAGE, variant: 'destructive' }),
      onChangeRefused: (message) => toast({ ...CANVAS_TOASTS.changeRefused, description: message }),
      onReopen: () => setSession(new ProjectSession(projectId)),
      // A new role may come with a reconnect (issue 6 item 1): read the project, its
      // members and the list again.
      onReauthenticated: () => {
        void queryClient.invalidateQueries({ queryKey: projectQueryKey(projectId), exact: true })
        void queryClient.invalidateQueries({ queryKey: projectMembersKey(projectId) })
        void queryClient.invalidateQueries({ queryKey: QUERY_KEYS.projects, exact: true })
      },
      onAccessChanged: (content) => toast({ ...content }),
      onAccessLost: () => toast({ ...ACCESS_TOASTS.lost }),
      onServerBusy: () => toast({ title: SERVER_BUSY_MESSAGE }),
    })
    return () => session.stop()
  }, [session, queryClient, projectId])
  return session
}
