import { ReactFlowProvider } from '@xyflow/react'
import { FileQuestionIcon } from 'lucide-react'
import { useEffect } from 'react'
import { Link } from 'wouter'
import { PageLoader } from '@/components/layout/page-loader'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { useDocumentTitle } from '@/hooks/use-document-title'
import { toast } from '@/hooks/use-toast'
import { isApiError } from '@/lib/api-client'
import { useProject, useProjects } from '@/lib/projects-api'
import { useAnnounceUser } from '../hooks/use-presence'
import { useProjectSession } from '../hooks/use-project-session'
import { useSaveStatusBridge } from '../hooks/use-save-status-bridge'
import { useSessionStatus } from '../hooks/use-session-status'
import { CANVAS_TOASTS } from '../lib/canvas-messages'
import { CanvasStoreContext } from '../stores/canvas-store-context'
import { PresenceContext } from '../stores/presence-context'
import { ProjectIdContext } from '../stores/project-id-context'
import { FlowCanvas } from './flow-canvas'
import { NodesLibrary, NodesLibraryBar } from './nodes-library'
import { PresenceAvatars } from './presence-avatars'
import { ProjectBreadcrumb } from './project-breadcrumb'
import { SavingIndicator } from './saving-indicator'

/** A project that does not exist or is not this person's (spec §8 Load Failed). */
export function ProjectUnavailable() {
  return (
    <div className="flex flex-1 items-center justify-center p-4">
      <Card className="w-full max-w-md" role="alert">
        <CardHeader>
          <FileQuestionIcon className="size-8 text-muted-foreground" aria-hidden />
          <CardTitle as="h1">This project could not be opened</CardTitle>
          <CardDescription>
            Failed to load project data. It may have been deleted, or the link is wrong.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <Button asChild>
            <Link href="/projects">Go to Projects</Link>
          </Button>
        </CardContent>
      </Card>
    </div>
  )
}

function EditorBody({ projectId }: { projectId: number }) {
  const { ready, failure } = useSessionStatus()
  const project = useProject(projectId)
  const summary = useProjects().data?.find((p) => p.id === projectId)
  const name = project.data?.name ?? summary?.name
  const missing = failure === 'not-found' || isApiError(project.error, 404)
  useSaveStatusBridge()
  useDocumentTitle(name ?? 'Dashboard')

  useEffect(() => {
    if (isApiError(project.error, 404)) toast({ ...CANVAS_TOASTS.loadFailed })
  }, [project.error])

  if (missing) return <ProjectUnavailable />
  return (
    <div className="flex flex-1 flex-col">
      <div className="flex h-12 shrink-0 items-center justify-between gap-4 border-b px-4">
        <ProjectBreadcrumb projectId={projectId} name={name} />
        <div className="flex items-center gap-3">
          <PresenceAvatars />
          <SavingIndicator />
        </div>
      </div>
      {ready ? <NodesLibraryBar /> : null}
      <div className="flex min-h-[32rem] flex-1">
        <NodesLibrary />
        <section aria-label="Canvas" className="relative flex-1 bg-muted/30">
          {ready ? <FlowCanvas /> : <PageLoader label="Loading your canvas..." />}
        </section>
      </div>
    </div>
  )
}

/**
 * The editor of one project (spec §2 "/ (canvas editor)"): breadcrumb with rename, the
 * Nodes Library and the canvas, over the project's session. Key it by project id.
 */
export function ProjectEditor({ projectId }: { projectId: number }) {
  const session = useProjectSession(projectId)
  useAnnounceUser(session.presence)
  return (
    <CanvasStoreContext.Provider value={session.store}>
      <PresenceContext.Provider value={session.presence}>
        <ProjectIdContext.Provider value={projectId}>
          <ReactFlowProvider>
            <EditorBody projectId={projectId} />
          </ReactFlowProvider>
        </ProjectIdContext.Provider>
      </PresenceContext.Provider>
    </CanvasStoreContext.Provider>
  )
}
