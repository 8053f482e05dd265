import {
  canEditProject,
  formatLongDate,
  PROJECT_ROLE_LABELS,
  type ProjectSummary,
} from '@reelgraph/shared'
import { ArrowRightIcon, DownloadIcon, PencilIcon, Trash2Icon } from 'lucide-react'
import { type ComponentType, memo, useId } from 'react'
import { Link } from 'wouter'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { ProjectPreviewImage } from './project-preview'

/** Props of a card's "Save as template…" control (issue 42 item 2, from `features/templates`). */
export interface SaveAsTemplateControlProps {
  project: Pick<ProjectSummary, 'id' | 'name'>
}

/** Props of {@link ProjectCard}. */
export interface ProjectCardProps {
  project: ProjectSummary
  /** Opens the rename dialog for this project. */
  onRename: (project: ProjectSummary) => void
  /** Opens the delete confirmation for this project. */
  onDelete: (project: ProjectSummary) => void
  /** Downloads this project's graph file (issue 42 item 2). */
  onExport: (project: ProjectSummary) => void
  /** True while this project's graph file downloads. */
  exporting?: boolean
  /** "Save as template…" (issue 42 item 2), shown beside Export graph when given. */
  SaveAsTemplateControl?: ComponentType<SaveAsTemplateControlProps> | undefined
}

/** "1 node", "1,000 nodes". */
export function formatNodeCount(count: number): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? 'node' : 'nodes'}`
}

/** The canvas URL of a project: `/?id=<id>` (spec §2 /). */
export function projectHref(id: number): string {
  return `/?id=${String(id)}`
}

/**
 * One project on the /projects grid: a small preview of its graph, name, description, last
 * updated (long US date), node count, and Open, Export graph, Save as template… (issue 42
 * item 2, when the page is given it), Rename and Delete. An `article` named by its title, so each card
 * is a landmark-like unit for assistive technology and tests. A project shared with the
 * user says "Shared by <owner>" with their role; editors may rename it, only its owner
 * delete it (issue 6 item 1); any member may export its graph file (issue 42 item 2).
 */
export const ProjectCard = memo(function ProjectCard({
  project,
  onRename,
  onDelete,
  onExport,
  exporting = false,
  SaveAsTemplateControl,
}: ProjectCardProps) {
  const titleId = useId()
  const shared = project.role !== 'owner'
  return (
    <article
      aria-labelledby={titleId}
      className="flex min-w-0 flex-col gap-4 rounded-xl border bg-card p-5 text-card-foreground shadow-sm transition-shadow focus-within:shadow-md hover:shadow-md"
    >
      <ProjectPreviewImage nodes={project.preview} />
      <div className="flex min-w-0 flex-col gap-1.5">
        <h2
          id={titleId}
          title={project.name}
          className="line-clamp-2 break-words font-semibold text-lg leading-tight"
        >
          {project.name}
        </h2>
        {shared ? (
          <div className="flex flex-wrap items-center gap-2 text-muted-foreground text-xs">
            <span>Shared by {project.ownerName}</span>
            <Badge variant="secondary">{PROJECT_ROLE_LABELS[project.role]}</Badge>
          </div>
        ) : null}
        {project.description ? (
          <p className="line-clamp-3 break-words text-muted-foreground text-sm">
            {project.description}
          </p>
        ) : null}
      </div>
      <div className="mt-auto flex flex-wrap items-center justify-between gap-x-3 gap-y-1 text-muted-foreground text-xs">
        <p>
          Last updated <time dateTime={project.updatedAt}>{formatLongDate(project.updatedAt)}</time>
        </p>
        <p>{formatNodeCount(project.nodeCount)}</p>
      </div>
      <div className="flex items-center gap-2">
        <Button asChild size="sm" className="flex-1">
          <Link href={projectHref(project.id)} aria-label={`Open ${project.name}`}>
            Open
            <ArrowRightIcon aria-hidden />
          </Link>
        </Button>
        <Button
          type="button"
          variant="outline"
          size="icon"
          className="size-8"
          aria-label={`Export graph of ${project.name}`}
          title="Export graph"
          disabled={exporting}
          onClick={() => onExport(project)}
        >
          <DownloadIcon aria-hidden />
        </Button>
        {SaveAsTemplateControl ? <SaveAsTemplateControl project={project} /> : null}
        {canEditProject(project.role) ? (
          <Button
            type="button"
            variant="outline"
            size="icon"
            className="size-8"
            aria-label={`Rename ${project.name}`}
            title="Rename"
            onClick={() => onRename(project)}
          >
            <PencilIcon aria-hidden />
          </Button>
        ) : null}
        {shared ? null : (
          <Button
            type="button"
            variant="outline"
            size="icon"
            className="size-8 text-destructive hover:bg-destructive/10 hover:text-destructive"
            aria-label={`Delete ${project.name}`}
            title="Delete"
            onClick={() => onDelete(project)}
          >
            <Trash2Icon aria-hidden />
          </Button>
        )}
      </div>
    </article>
  )
})
