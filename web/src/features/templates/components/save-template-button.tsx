import {
  PROJECT_DESCRIPTION_MAX_LENGTH,
  projectDescriptionSchema,
  projectNameSchema,
  type ProjectSummary,
} from '@reelgraph/shared'
import { BookmarkPlusIcon, RotateCwIcon } from 'lucide-react'
import { type FormEvent, useId, useState } from 'react'
import { Button } from '@/components/ui/button'
import { Checkbox } from '@/components/ui/checkbox'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog'
import { FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { Spinner } from '@/components/ui/spinner'
import { toast } from '@/hooks/use-toast'
import { ApiError, errorMessage } from '@/lib/api-client'
import { useProject } from '@/lib/projects-api'
import { useSaveTemplate } from '../api/templates-api'
import { foundVariables, templateMarks, TOPIC_VARIABLE, topicFieldOf } from '../lib/save-template'

/** Props of {@link SaveAsTemplateButton}: the card's project. */
export interface SaveAsTemplateButtonProps {
  project: Pick<ProjectSummary, 'id' | 'name'>
}

/**
 * "Save as template…" on a project's card (issue 42 item 2): an icon button that opens a
 * dialog with the template's name, description, "Make the topic a variable ({{topic}})" (on
 * by default: it marks the Script Generator's `topic`, read from the project's graph) and the
 * variables the template will ask for; Save sends `POST /api/templates`, toasts, and the
 * gallery shows it under Yours.
 */
export function SaveAsTemplateButton({ project }: SaveAsTemplateButtonProps) {
  const [open, setOpen] = useState(false)
  const [busy, setBusy] = useState(false)
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!busy) setOpen(next)
      }}
    >
      <DialogTrigger asChild>
        <Button
          type="button"
          variant="outline"
          size="icon"
          className="size-8"
          aria-label={`Save ${project.name} as template…`}
          title="Save as template…"
        >
          <BookmarkPlusIcon aria-hidden />
        </Button>
      </DialogTrigger>
      {open ? (
        <SaveTemplateContent
          project={project}
          busy={busy}
          onBusyChange={setBusy}
          onDone={() => setOpen(false)}
        />
      ) : null}
    </Dialog>
  )
}

function SaveTemplateContent({
  project,
  busy,
  onBusyChange,
  onDone,
}: SaveAsTemplateButtonProps & {
  busy: boolean
  onBusyChange: (busy: boolean) => void
  onDone: () => void
}) {
  const graph = useProject(project.id)
  const save = useSaveTemplate()
  const [name, setName] = useState(project.name)
  const [description, setDescription] = useState('')
  const [topicAsVariable, setTopicAsVariable] = useState(true)
  const [errors, setErrors] = useState<{ name?: string; description?: string; form?: string }>({})
  const checkboxId = useId()

  const nodes = graph.data?.nodes ?? []
  const topicField = topicFieldOf(nodes)
  const marks = templateMarks(topicField, topicAsVariable)
  const variables = foundVariables(nodes, marks)

  const blockWhileBusy = (event: Event) => {
    if (busy) event.preventDefault()
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const nameCheck = projectNameSchema.safeParse(name)
    const descriptionCheck = projectDescriptionSchema.safeParse(description.trim())
    if (!nameCheck.success || !descriptionCheck.success) {
      setErrors({
        name: nameCheck.error?.issues[0]?.message,
        description: descriptionCheck.error?.issues[0]?.message,
      })
      return
    }
    setErrors({})
    onBusyChange(true)
    try {
      const template = await save.mutateAsync({
        projectId: project.id,
        name: nameCheck.data,
        description: descriptionCheck.data,
        marks,
      })
      toast({
        title: 'Template Saved',
        description: `“${template.name}” is in New from template, under Yours.`,
      })
      onBusyChange(false)
      onDone()
    } catch (error) {
      console.error('Failed to save a template.', error)
      const fields = error instanceof ApiError ? error.fields : undefined
      const message = errorMessage(error, 'Couldn’t save the template. Please try again.')
      setErrors(
        fields?.name || fields?.description
          ? { name: fields.name, description: fields.description }
          : { form: message },
      )
      onBusyChange(false)
    }
  }

  return (
    <DialogContent
      showCloseButton={!busy}
      onEscapeKeyDown={blockWhileBusy}
      onInteractOutside={blockWhileBusy}
    >
      <form className="grid gap-4" onSubmit={(e) => void submit(e)} aria-busy={busy || undefined}>
        <DialogHeader>
          <DialogTitle>Save as template</DialogTitle>
          <DialogDescription>
            “{project.name}” stays as it is; its graph and settings become a template you can start
            new projects and batches from.
          </DialogDescription>
        </DialogHeader>
        <FormField label="Template name" error={errors.name}>
          <Input
            value={name}
            disabled={busy}
            autoComplete="off"
            onChange={(event) => setName(event.target.value)}
          />
        </FormField>
        <FormField
          label="Description"
          description="What videos it makes, in a sentence (optional)."
          error={errors.description}
        >
          <textarea
            value={description}
            disabled={busy}
            rows={2}
            maxLength={PROJECT_DESCRIPTION_MAX_LENGTH}
            className="w-full min-w-0 rounded-md border border-input bg-transparent px-3 py-2 text-base shadow-xs outline-none placeholder:text-muted-foreground focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:opacity-50 aria-invalid:border-destructive md:text-sm"
            onChange={(event) => setDescription(event.target.value)}
          />
        </FormField>
        <div className="flex items-start gap-2">
          <Checkbox
            id={checkboxId}
            checked={topicAsVariable && topicField !== null}
            disabled={busy || topicField === null}
            onCheckedChange={(checked) => setTopicAsVariable(checked === true)}
            className="mt-0.5"
          />
          <div className="grid gap-1">
            <Label htmlFor={checkboxId}>
              Make the topic a variable ({`{{${TOPIC_VARIABLE}}}`})
            </Label>
            <p className="text-muted-foreground text-xs">
              {graph.isPending
                ? 'Reading the project’s graph...'
                : topicField
                  ? `Each new project asks for its topic${topicField.topic ? `; “${topicField.topic}” is the example.` : '.'}`
                  : 'This project has no Script Generator topic to turn into a variable.'}
            </p>
          </div>
        </div>
        <div aria-live="polite" className="text-sm">
          {graph.isError ? (
            <p role="alert" className="flex flex-wrap items-center gap-2 text-destructive">
              Couldn’t read the project’s graph. {errorMessage(graph.error)}
              <Button
                type="button"
                variant="outline"
                size="sm"
                onClick={() => void graph.refetch()}
              >
                <RotateCwIcon aria-hidden />
                Retry
              </Button>
            </p>
          ) : graph.isPending ? null : variables.length > 0 ? (
            <p>
              Variables:{' '}
              {variables.map((v, i) => (
                <span key={v}>
                  {i > 0 ? ', ' : null}
                  <code className="rounded bg-muted px-1 py-0.5 text-xs">{`{{${v}}}`}</code>
                </span>
              ))}
            </p>
          ) : (
            <p className="text-muted-foreground">
              No variables: every project made from it will be the same.
            </p>
          )}
        </div>
        {errors.form ? (
          <p role="alert" className="font-medium text-destructive text-sm">
            {errors.form}
          </p>
        ) : null}
        <DialogFooter>
          <Button type="submit" disabled={busy || graph.isPending || name.trim() === ''}>
            {busy ? <Spinner /> : null}
            {busy ? 'Saving...' : 'Save template'}
          </Button>
        </DialogFooter>
      </form>
    </DialogContent>
  )
}
