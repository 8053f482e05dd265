import { DEFAULT_PROJECT_NAME, type ImportedProject, type ProjectSummary } from '@reelgraph/shared'
import { FolderPlusIcon, PlusIcon, RotateCwIcon } from 'lucide-react'
import { type ComponentType, type ReactNode, useCallback, useEffect, useRef, useState } from 'react'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { useDocumentTitle } from '@/hooks/use-document-title'
import { toast } from '@/hooks/use-toast'
import { errorMessage } from '@/lib/api-client'
import {
  useCreateProject,
  useDeleteProject,
  useProjects,
  useRenameProject,
} from '@/lib/projects-api'
import { exportGraphFile } from '../api/graph-file-api'
import { DeleteProjectDialog } from './delete-project-dialog'
import { FailureNotice } from './failure-notice'
import { ImportGraphButton } from './import-graph-button'
import { ImportWarnings } from './import-warnings'
import { ProjectCard, type SaveAsTemplateControlProps } from './project-card'
import { ProjectGridSkeleton } from './project-grid-skeleton'
import { ProjectNameDialog } from './project-name-dialog'

/** What the page says after a graph file export or import (issue 42 item 2), until dismissed. */
type GraphFileNotice =
  | { kind: 'failed'; message: string; detail: string }
  | { kind: 'imported'; project: ImportedProject }

/** What the page says when the list cannot be loaded. */
const LOAD_FAILED_MESSAGE = 'Couldn’t load your projects.'

/** Props of {@link ProjectsPage}: controls of other features, composed in `app/`. */
export interface ProjectsPageProps {
  /** "New from template" in the header (issue 42 item 2), beside Import graph… and New project. */
  TemplatesControl?: ComponentType | undefined
  /** "Save as template…" on each card (issue 42 item 2). */
  SaveAsTemplateControl?: ComponentType<SaveAsTemplateControlProps> | undefined
}

/**
 * /projects: the signed-in user's projects as a grid of cards, most recently updated first,
 * with New project and Import graph…, and Open, Export graph, Rename and Delete on each card.
 * Successes toast ("Project Created", "Project Renamed", "Project Deleted", "Graph
 * Imported"); failures are only logged (spec §8) and said inline, in the dialog or on the
 * page, with a way to try again; what an import left out is listed on the page.
 * @see spec §2 /projects, §5 Projects, §8 Projects
 */
export function ProjectsPage({ TemplatesControl, SaveAsTemplateControl }: ProjectsPageProps = {}) {
  useDocumentTitle('Projects')
  const projects = useProjects()
  const createProject = useCreateProject()
  const renameProject = useRenameProject()
  const deleteProject = useDeleteProject()

  const [creating, setCreating] = useState(false)
  const [renaming, setRenaming] = useState<ProjectSummary | null>(null)
  const [deleting, setDeleting] = useState<ProjectSummary | null>(null)
  const [exportingId, setExportingId] = useState<number | null>(null)
  const [graphNotice, setGraphNotice] = useState<GraphFileNotice | null>(null)

  // Dialogs opened from a card have no Radix trigger: remember what had focus, and give it
  // back on close; after a deletion (its card is gone) focus goes to the page heading.
  const headingRef = useRef<HTMLHeadingElement>(null)
  const openerRef = useRef<HTMLElement | null>(null)
  const deletedRef = useRef(false)
  const rememberOpener = () => {
    openerRef.current =
      document.activeElement instanceof HTMLElement ? document.activeElement : null
  }
  const restoreFocus = useCallback((event: Event) => {
    event.preventDefault()
    const opener = openerRef.current
    if (!deletedRef.current && opener?.isConnected) opener.focus()
    else headingRef.current?.focus()
    deletedRef.current = false
  }, [])

  const openCreate = () => {
    rememberOpener()
    setCreating(true)
  }
  const openRename = useCallback((project: ProjectSummary) => {
    rememberOpener()
    setRenaming(project)
  }, [])
  const openDelete = useCallback((project: ProjectSummary) => {
    rememberOpener()
    setDeleting(project)
  }, [])

  const exportGraph = useCallback(async (project: ProjectSummary) => {
    setExportingId(project.id)
    setGraphNotice(null)
    try {
      await exportGraphFile(project)
    } catch (error) {
      console.error('Failed to export a graph file.', error)
      setGraphNotice({
        kind: 'failed',
        message: `Couldn’t export the graph of “${project.name}”.`,
        detail: errorMessage(error),
      })
    } finally {
      setExportingId(null)
    }
  }, [])
  const onExport = useCallback(
    (project: ProjectSummary) => void exportGraph(project),
    [exportGraph],
  )
  const onImported = (project: ImportedProject) => {
    toast({ title: 'Graph Imported', description: `“${project.name}” is ready.` })
    setGraphNotice(project.warnings.length > 0 ? { kind: 'imported', project } : null)
  }
  const onImportFailed = (error: unknown, fileName: string) => {
    setGraphNotice({
      kind: 'failed',
      message: `Couldn’t import “${fileName}”.`,
      detail: errorMessage(error),
    })
  }
  const dismissGraphNotice = (
    <Button type="button" variant="outline" size="sm" onClick={() => setGraphNotice(null)}>
      Dismiss
    </Button>
  )

  const { error: loadError } = projects
  useEffect(() => {
    if (loadError) console.error('Failed to load projects.', loadError)
  }, [loadError])

  const list = projects.data
  const retry = (
    <Button
      type="button"
      variant="outline"
      size="sm"
      disabled={projects.isFetching}
      onClick={() => void projects.refetch()}
    >
      {projects.isFetching ? <Spinner /> : <RotateCwIcon aria-hidden />}
      {projects.isFetching ? 'Retrying...' : 'Retry'}
    </Button>
  )

  let body: ReactNode
  if (list === undefined && projects.isPending && !projects.isError) {
    body = <ProjectGridSkeleton />
  } else if (list === undefined) {
    body = (
      <FailureNotice
        message={LOAD_FAILED_MESSAGE}
        detail={errorMessage(loadError)}
        action={retry}
      />
    )
  } else if (list.length === 0) {
    body = <EmptyState onCreate={openCreate} />
  } else {
    body = (
      <>
        {projects.isRefetchError ? (
          <FailureNotice
            message="Couldn’t refresh your projects; showing the last list loaded."
            detail={errorMessage(loadError)}
            action={retry}
          />
        ) : null}
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
          {list.map((project) => (
            <li key={project.id} className="flex min-w-0 flex-col *:flex-1">
              <ProjectCard
                project={project}
                onRename={openRename}
                onDelete={openDelete}
                onExport={onExport}
                exporting={exportingId === project.id}
                SaveAsTemplateControl={SaveAsTemplateControl}
              />
            </li>
          ))}
        </ul>
      </>
    )
  }

  return (
    <div className="mx-auto flex w-full max-w-screen-2xl flex-1 flex-col gap-6 px-4 py-8 sm:px-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="flex flex-col gap-1">
          <h1
            ref={headingRef}
            tabIndex={-1}
            className="font-semibold text-2xl tracking-tight outline-none"
          >
            Projects
          </h1>
          <p className="text-muted-foreground text-sm">
            {list && list.length > 0
              ? `${String(list.length)} ${list.length === 1 ? 'project' : 'projects'}, most recently updated first.`
              : 'Each project is a canvas of nodes.'}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <ImportGraphButton onImported={onImported} onFailed={onImportFailed} />
          {TemplatesControl ? <TemplatesControl /> : null}
          <Button type="button" onClick={openCreate}>
            <PlusIcon aria-hidden />
            New project
          </Button>
        </div>
      </div>

      {graphNotice?.kind === 'failed' ? (
        <FailureNotice
          message={graphNotice.message}
          detail={graphNotice.detail}
          action={dismissGraphNotice}
        />
      ) : null}
      {graphNotice?.kind === 'imported' ? (
        <ImportWarnings project={graphNotice.project} onDismiss={() => setGraphNotice(null)} />
      ) : null}

      {body}

      <ProjectNameDialog
        open={creating}
        onOpenChange={setCreating}
        title="New project"
        description="Give your project a name. You can rename it later."
        initialName={DEFAULT_PROJECT_NAME}
        submitLabel="Create project"
        busyLabel="Creating..."
        failureMessage="Failed to create project. Please try again."
        onCloseAutoFocus={restoreFocus}
        onSubmit={async (name) => {
          const created = await createProject.mutateAsync({ name })
          toast({ title: 'Project Created', description: `“${created.name}” is ready.` })
        }}
      />
      <ProjectNameDialog
        open={renaming !== null}
        onOpenChange={(open) => {
          if (!open) setRenaming(null)
        }}
        title="Rename project"
        description="Enter a new name for this project."
        initialName={renaming?.name ?? ''}
        submitLabel="Rename"
        busyLabel="Renaming..."
        failureMessage="Failed to rename project. Please try again."
        onCloseAutoFocus={restoreFocus}
        onSubmit={async (name) => {
          if (!renaming) return
          const renamed = await renameProject.mutateAsync({ id: renaming.id, name })
          toast({ title: 'Project Renamed', description: `It is now “${renamed.name}”.` })
        }}
      />
      <DeleteProjectDialog
        project={deleting}
        onOpenChange={(open) => {
          if (!open) setDeleting(null)
        }}
        onCloseAutoFocus={restoreFocus}
        onConfirm={async (project) => {
          await deleteProject.mutateAsync({ id: project.id })
          deletedRef.current = true
          toast({ title: 'Project Deleted', description: `“${project.name}” was deleted.` })
        }}
      />
    </div>
  )
}

/** No projects yet: a call to create the first one. */
function EmptyState({ onCreate }: { onCreate: () => void }) {
  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-4 rounded-xl border border-dashed p-10 text-center">
      <FolderPlusIcon className="size-10 text-muted-foreground" aria-hidden />
      <div className="flex flex-col gap-1">
        <h2 className="font-semibold text-lg">No projects yet</h2>
        <p className="max-w-md text-muted-foreground text-sm">
          Create your first project to start building your video on the canvas.
        </p>
      </div>
      <Button type="button" onClick={onCreate}>
        <PlusIcon aria-hidden />
        Create your first project
      </Button>
    </div>
  )
}
