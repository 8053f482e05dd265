import { projectIdOfDocument } from '@reelgraph/shared'
import { type ComponentType, useEffect } from 'react'
import { useSearch } from 'wouter'
import { PageLoader } from '@/components/layout/page-loader'
import { Button } from '@/components/ui/button'
import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { useDocumentTitle } from '@/hooks/use-document-title'
import { toast } from '@/hooks/use-toast'
import { useProjects } from '@/lib/projects-api'
import { CANVAS_TOASTS } from '../lib/canvas-messages'
import { CreateFirstProject } from './create-first-project'
import { ProjectEditor, ProjectUnavailable, type ShareControlProps } from './project-editor'

function ProjectsLoadError({ onRetry }: { onRetry: () => void }) {
  return (
    <div className="flex flex-1 items-center justify-center p-4">
      <Card className="w-full max-w-md" role="alert">
        <CardHeader>
          <CardTitle as="h1">We couldn't load your projects</CardTitle>
          <CardDescription>Failed to load projects. Please try again.</CardDescription>
        </CardHeader>
        <div className="px-6">
          <Button onClick={onRetry}>Try again</Button>
        </div>
      </Card>
    </div>
  )
}

/**
 * / (Dashboard): the canvas editor (spec §2). Opens the project of the `id` query
 * parameter, else the first (most recently updated) project, else offers to create one.
 * "Loading your canvas..." while the list loads; "Error - Failed to load projects. Please
 * try again." when it cannot (spec §8). `ShareControl` goes to the editor's top bar.
 */
export function CanvasPage({
  ShareControl,
}: { ShareControl?: ComponentType<ShareControlProps> } = {}) {
  useDocumentTitle('Dashboard')
  const idParam = new URLSearchParams(useSearch()).get('id')
  const byParam = idParam === null ? null : projectIdOfDocument(idParam)
  const projects = useProjects()
  const failed = idParam === null && projects.isError

  useEffect(() => {
    if (failed) toast({ ...CANVAS_TOASTS.projectsFailed })
  }, [failed])

  if (idParam !== null) {
    return byParam === null ? (
      <ProjectUnavailable />
    ) : (
      <ProjectEditor key={byParam} projectId={byParam} ShareControl={ShareControl} />
    )
  }
  if (projects.isPending) return <PageLoader label="Loading your canvas..." />
  if (projects.isError) return <ProjectsLoadError onRetry={() => void projects.refetch()} />
  const first = projects.data[0]
  if (!first) return <CreateFirstProject />
  return <ProjectEditor key={first.id} projectId={first.id} ShareControl={ShareControl} />
}
