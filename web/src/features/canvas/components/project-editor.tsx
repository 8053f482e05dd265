import { ReactFlowProvider } from '@xyflow/react'
import { FileQuestionIcon } from 'lucide-react'
import { type ComponentType, useEffect } from 'react'
import { Link } from 'wouter'
import { PageLoader } from '@/components/layout/page-loader'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { useDocumentTitle } from '@/hooks/use-document-title'
import { toast } from '@/hooks/use-toast'
import { isApiError } from '@/lib/api-client'
import { useProject, useProjects } from '@/lib/projects-api'
import { useCanEdit } from '../hooks/use-can-edit'
import { useAnnounceUser } from '../hooks/use-presence'
import { useProjectSession } from '../sync/use-project-session'
import { useRoleBridge } from '../hooks/use-role-bridge'
import { useUnloadWarning } from '../sync/use-unload-warning'
import { useSessionStatus } from '../sync/use-session-status'
import { CANVAS_TOASTS } from '../lib/canvas-messages'
import { CanvasStoreContext } from '../stores/canvas-store-context'
import { PresenceContext } from '../stores/presence-context'
import { ProjectIdContext } from '../stores/project-id-context'
import { FlowCanvas } from './flow-canvas'
import { NodesLibrary, NodesLibraryBar } from './nodes-library'
import { PresenceAvatars } from './presence-avatars'
import { ProjectBreadcrumb } from './project-breadcrumb'
import { SavingIndicator } from './saving-indicator'
import { ViewOnlyBadge } from './view-only-badge'

/** What the editor hands the Share control of its top bar (composed by `app/`). */
export interface ShareControlProps {
  projectId: number
  /** The project's name, once known. */
  projectName: string | undefined
}

/** Why {@link ProjectUnavailable} shows. */
export type UnavailableReason = 'not-found' | 'access-lost'

const UNAVAILABLE_TEXT: Record<UnavailableReason, { title: string; description: string }> = {
  'not-found': {
    title: 'This project could not be opened',
    description: 'Failed to load project data. It may have been deleted, or the link is wrong.',
  },
  'access-lost': {
    title: 'You no longer have access to this project',
    description:
      'Its owner removed you from it, or it was deleted. Ask the owner to invite you again.',
  },
}

/**
 * A project that does not exist or is not this person's (spec §8 Load Failed), or, with
 * `reason="access-lost"`, one that was open until its owner removed this person (issue 6).
 */
export function ProjectUnavailable({ reason = 'not-found' }: { reason?: UnavailableReason }) {
  const text = UNAVAILABLE_TEXT[reason]
  return (
    <div className="flex flex-1 items-center justify-center p-4">
      <Card className="w-full max-w-md" role="alert">
        <CardHeader>
          <FileQuestionIcon className="size-8 text-muted-foreground" aria-hidden />
          <CardTitle as="h1">{text.title}</CardTitle>
          <CardDescription>{text.description}</CardDescription>
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

function EditorBody({
  projectId,
  ShareControl,
}: {
  projectId: number
  ShareControl: ComponentType<ShareControlProps> | undefined
}) {
  const { ready, failure } = useSessionStatus()
  const canEdit = useCanEdit()
  const project = useProject(projectId)
  const summary = useProjects().data?.find((p) => p.id === projectId)
  const name = project.data?.name ?? summary?.name
  const lost = failure === 'access-lost'
  const missing = lost || failure === 'not-found' || isApiError(project.error, 404)
  useRoleBridge(project.data?.role ?? summary?.role ?? null)
  useUnloadWarning()
  useDocumentTitle(name ?? 'Dashboard')

  // The session already said so when it was refused (access lost): one toast is enough.
  const restMissing = isApiError(project.error, 404) && failure === null
  useEffect(() => {
    if (restMissing) toast({ ...CANVAS_TOASTS.loadFailed })
  }, [restMissing])

  if (missing) return <ProjectUnavailable reason={lost ? 'access-lost' : 'not-found'} />
  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <div className="flex h-12 shrink-0 items-center justify-between gap-4 border-b px-4">
        <ProjectBreadcrumb projectId={projectId} name={name} canRename={canEdit} />
        <div className="flex shrink-0 items-center gap-3">
          {canEdit ? null : <ViewOnlyBadge />}
          <PresenceAvatars />
          <SavingIndicator />
          {ShareControl ? <ShareControl projectId={projectId} projectName={name} /> : null}
        </div>
      </div>
      {ready && canEdit ? <NodesLibraryBar /> : null}
      {/* Fills what the header leaves; the library scrolls on its own (issue 14 item 4). */}
      <div className="flex min-h-80 flex-1">
        {canEdit ? <NodesLibrary /> : null}
        <section aria-label="Canvas" className="relative flex-1 bg-muted/30">
          {ready ? <FlowCanvas /> : <PageLoader label="Loading your canvas..." />}
        </section>
      </div>
    </div>
  )
}

/**
 * The editor of one project (spec §2 "/ (canvas editor)"): breadcrumb with rename, the
 * Nodes Library and the canvas, over the project's session. Key it by project id. For a
 * viewer (issue 6 item 1) the canvas is read-only, the library and rename are gone and the
 * top bar says "View only". `ShareControl` (the Share button, from `app/`) sits in the top
 * bar.
 */
export function ProjectEditor({
  projectId,
  ShareControl,
}: {
  projectId: number
  ShareControl?: ComponentType<ShareControlProps> | undefined
}) {
  const session = useProjectSession(projectId)
  useAnnounceUser(session.presence)
  return (
    <CanvasStoreContext.Provider value={session.store}>
      <PresenceContext.Provider value={session.presence}>
        <ProjectIdContext.Provider value={projectId}>
          {/* A new session (after a refused change) starts the canvas afresh. */}
          <ReactFlowProvider key={session.key}>
            <EditorBody projectId={projectId} ShareControl={ShareControl} />
          </ReactFlowProvider>
        </ProjectIdContext.Provider>
      </PresenceContext.Provider>
    </CanvasStoreContext.Provider>
  )
}
