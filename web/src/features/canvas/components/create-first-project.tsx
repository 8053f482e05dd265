import { DEFAULT_PROJECT_NAME, projectNameSchema } from '@reelgraph/shared'
import { FolderPlusIcon } from 'lucide-react'
import { type FormEvent, useState } from 'react'
import { useLocation } from 'wouter'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { Spinner } from '@/components/ui/spinner'
import { toast } from '@/hooks/use-toast'
import { useCreateProject } from '@/lib/projects-api'
import { CANVAS_TOASTS } from '../lib/canvas-messages'

/**
 * For someone with no project yet (spec §2): a name (default "My Project") and Create,
 * disabled while the trimmed name is empty (spec §5). The new project opens at once;
 * "Project Created", or "Failed to create project. Please try again." (also when the
 * answer has no numeric id, spec §5 Projects).
 */
export function CreateFirstProject() {
  const [name, setName] = useState(DEFAULT_PROJECT_NAME)
  const create = useCreateProject()
  const [, navigate] = useLocation()
  const parsed = projectNameSchema.safeParse(name)
  const empty = name.trim() === ''
  const error = !empty && !parsed.success ? parsed.error.issues[0]?.message : undefined
  const busy = create.isPending

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!parsed.success || busy) return
    create.mutate(
      { name: parsed.data },
      {
        onSuccess: (project) => {
          toast({ ...CANVAS_TOASTS.projectCreated, description: project.name })
          navigate(`/?id=${project.id}`, { replace: true })
        },
        onError: (err) => {
          console.error('Failed to create project', err)
          toast({ ...CANVAS_TOASTS.createFailed })
        },
      },
    )
  }

  return (
    <div className="flex flex-1 items-center justify-center p-4">
      <Card className="w-full max-w-md">
        <CardHeader>
          <FolderPlusIcon className="size-8 text-primary" aria-hidden />
          <CardTitle as="h1">Create your first project</CardTitle>
          <CardDescription>
            A project holds one canvas of nodes: scripts, scenes and images. Name it to start.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <form noValidate onSubmit={submit} className="grid gap-4" aria-busy={busy || undefined}>
            <FormField label="Project name" error={error}>
              <Input
                autoComplete="off"
                value={name}
                readOnly={busy}
                onChange={(e) => setName(e.target.value)}
              />
            </FormField>
            <Button type="submit" disabled={busy || !parsed.success}>
              {busy ? <Spinner /> : null}
              {busy ? 'Creating...' : 'Create Project'}
            </Button>
          </form>
        </CardContent>
      </Card>
    </div>
  )
}
