import type { ImportedProject } from '@reelgraph/shared'
import { InfoIcon } from 'lucide-react'
import { Link } from 'wouter'
import { Button } from '@/components/ui/button'
import { projectHref } from './project-card'

/**
 * What an import left out or could not bring along (issue 42 item 2: the answer's
 * `warnings`), said on the page until dismissed, with a way to open the new project.
 */
export function ImportWarnings({
  project,
  onDismiss,
}: {
  project: ImportedProject
  onDismiss: () => void
}) {
  return (
    <div
      role="status"
      className="flex flex-wrap items-start gap-3 rounded-md border bg-muted/40 px-3 py-2 text-sm"
    >
      <InfoIcon aria-hidden className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
      <div className="min-w-0 flex-1">
        <p className="font-medium">“{project.name}” was imported, with these notes:</p>
        <ul className="mt-1 list-disc space-y-1 break-words pl-5 text-muted-foreground">
          {project.warnings.map((warning) => (
            <li key={warning}>{warning}</li>
          ))}
        </ul>
      </div>
      <div className="flex items-center gap-2">
        <Button asChild size="sm">
          <Link href={projectHref(project.id)}>Open “{project.name}”</Link>
        </Button>
        <Button type="button" variant="outline" size="sm" onClick={onDismiss}>
          Dismiss
        </Button>
      </div>
    </div>
  )
}
