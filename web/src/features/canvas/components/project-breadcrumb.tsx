import { PencilIcon } from 'lucide-react'
import { useState } from 'react'
import { Link } from 'wouter'
import { RenameProjectDialog } from './rename-project-dialog'

/**
 * "Projects / <project name>" (spec §2): Projects goes to /projects, the name opens the
 * rename dialog. Until the name is known it reads "Projects / ...". Without `canRename` (a
 * viewer, issue 6 item 1) the name is plain text.
 */
export function ProjectBreadcrumb({
  projectId,
  name,
  canRename = true,
}: {
  projectId: number
  name?: string | undefined
  canRename?: boolean
}) {
  const [renaming, setRenaming] = useState(false)
  return (
    <nav aria-label="Breadcrumb" className="min-w-0">
      <ol className="flex min-w-0 items-center gap-1.5 text-sm">
        <li>
          <Link
            href="/projects"
            className="rounded-sm text-muted-foreground outline-none hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50"
          >
            Projects
          </Link>
        </li>
        <li aria-hidden className="text-muted-foreground">
          /
        </li>
        <li className="min-w-0">
          {name === undefined ? (
            <span className="text-muted-foreground">...</span>
          ) : !canRename ? (
            <span aria-current="page" className="block truncate font-semibold">
              {name}
            </span>
          ) : (
            <button
              type="button"
              onClick={() => setRenaming(true)}
              aria-current="page"
              title="Rename project"
              className="group flex min-w-0 max-w-full items-center gap-1.5 rounded-sm font-semibold outline-none hover:text-primary focus-visible:ring-[3px] focus-visible:ring-ring/50"
            >
              <span className="truncate">{name}</span>
              <PencilIcon
                className="size-3.5 shrink-0 text-muted-foreground group-hover:text-primary"
                aria-hidden
              />
              <span className="sr-only">(rename)</span>
            </button>
          )}
        </li>
      </ol>
      {name !== undefined && canRename ? (
        <RenameProjectDialog
          projectId={projectId}
          currentName={name}
          open={renaming}
          onOpenChange={setRenaming}
        />
      ) : null}
    </nav>
  )
}
