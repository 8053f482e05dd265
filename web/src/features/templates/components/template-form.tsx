import {
  projectNameSchema,
  type TemplateSummary,
  templateProjectName,
  templateValueProblems,
} from '@reelgraph/shared'
import { ArrowLeftIcon, ClapperboardIcon, PlusIcon } from 'lucide-react'
import { type FormEvent, useState } from 'react'
import { useLocation } from 'wouter'
import { Button } from '@/components/ui/button'
import { DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { Spinner } from '@/components/ui/spinner'
import { toast } from '@/hooks/use-toast'
import { ApiError, errorMessage } from '@/lib/api-client'
import { useCreateFromTemplate } from '../api/templates-api'
import { type TemplateFormErrors, templateFormErrors } from '../lib/form-errors'
import { templateSettingsSummary } from '../lib/template-words'
import { ImageVariableInput } from './image-variable-input'

/** Props of {@link TemplateForm}. */
export interface TemplateFormProps {
  template: TemplateSummary
  /** Back to the gallery. */
  onBack: () => void
  /** The project exists: the dialog closes (the page moves to the canvas). */
  onDone: () => void
  /** True while a call runs, so the dialog cannot be dismissed meanwhile. */
  onBusyChange: (busy: boolean) => void
}

/** The canvas URL of a project (spec §2 /: `/?id=<id>`). */
function canvasHref(id: number): string {
  return `/?id=${String(id)}`
}

/**
 * A template's variables as a form (issue 42 item 2): a text input per text variable (its
 * example as the placeholder), a picture picker per image variable, the project's name
 * (following the values, as `templateProjectName` makes it, until edited), and "Create
 * project" or "Create and make video" (the template's Make video on the new project). Values
 * are checked with shared's `templateValueProblems` before sending; the server's refusal
 * goes beside the field it names; then the canvas opens at the new project.
 */
export function TemplateForm({ template, onBack, onDone, onBusyChange }: TemplateFormProps) {
  const [, navigate] = useLocation()
  const create = useCreateFromTemplate()
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(template.variables.map((v) => [v.name, ''])),
  )
  const [customName, setCustomName] = useState<string | null>(null)
  const [errors, setErrors] = useState<TemplateFormErrors>({ values: {} })
  const [pending, setPending] = useState<'project' | 'video' | null>(null)
  const names = template.variables.map((v) => v.name)
  const imageNames = new Set(
    template.variables.filter((v) => v.kind === 'image').map((v) => v.name),
  )
  const name = customName ?? templateProjectName(template.name, template.variables, values)
  const busy = pending !== null

  const setValue = (variable: string, value: string) => {
    setValues((current) => ({ ...current, [variable]: value }))
    setErrors(({ values: byName, ...rest }) => {
      const { [variable]: _dropped, ...others } = byName
      return { ...rest, values: others }
    })
  }

  const submit = async (makeVideo: boolean) => {
    const trimmed = Object.fromEntries(
      Object.entries(values).map(([key, value]) => [key, value.trim()]),
    )
    const problems = templateValueProblems(template.variables, trimmed)
    const nameCheck = projectNameSchema.safeParse(name)
    if (problems.length > 0 || !nameCheck.success) {
      setErrors({
        values: Object.fromEntries(
          problems.map((p) => [
            p.variable,
            imageNames.has(p.variable) && !trimmed[p.variable]
              ? `Choose a picture for {{${p.variable}}}.`
              : p.message,
          ]),
        ),
        ...(nameCheck.success ? {} : { name: nameCheck.error.issues[0]?.message }),
      })
      return
    }
    setErrors({ values: {} })
    setPending(makeVideo ? 'video' : 'project')
    onBusyChange(true)
    try {
      const created = await create.mutateAsync({
        input: { templateId: template.id, name: nameCheck.data, values: trimmed },
        makeVideo,
      })
      const { project } = created
      if (!makeVideo) {
        toast({ title: 'Project Created', description: `“${project.name}” is ready.` })
      } else if (created.job) {
        toast({
          title: 'Making your video',
          description: `“${project.name}” is ready; its progress shows on the Script Generator.`,
        })
      } else {
        toast({
          title: 'Project Created',
          description: created.videoError
            ? `The video did not start: ${errorMessage(created.videoError)}`
            : 'This template has no Script Generator to make a video from.',
          variant: created.videoError ? 'destructive' : 'default',
        })
      }
      onBusyChange(false)
      onDone()
      navigate(canvasHref(project.id))
    } catch (error) {
      console.error('Failed to create a project from a template.', error)
      setErrors(
        templateFormErrors(
          errorMessage(error, 'Couldn’t create the project. Please try again.'),
          error instanceof ApiError ? error.fields : undefined,
          names,
        ),
      )
      setPending(null)
      onBusyChange(false)
    }
  }

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    void submit(false)
  }

  return (
    <form className="grid gap-5" onSubmit={onSubmit} aria-busy={busy || undefined} noValidate>
      <DialogHeader>
        <Button
          type="button"
          variant="link"
          className="w-fit text-muted-foreground"
          disabled={busy}
          onClick={onBack}
        >
          <ArrowLeftIcon aria-hidden />
          All templates
        </Button>
        <DialogTitle>New project from “{template.name}”</DialogTitle>
        <DialogDescription>
          {templateSettingsSummary(template.settings)}.{' '}
          {template.variables.length > 0
            ? 'Fill in its variables; the rest of the graph comes from the template.'
            : 'It has no variables: the project is a copy of its graph.'}
        </DialogDescription>
      </DialogHeader>

      {template.variables.map((variable) =>
        variable.kind === 'image' ? (
          <FormField
            key={variable.name}
            label={variable.label}
            description={`{{${variable.name}}}: a PNG, JPEG or WebP picture.`}
            error={errors.values[variable.name]}
          >
            <ImageVariableInput
              label={variable.label}
              value={values[variable.name] ?? ''}
              disabled={busy}
              onChange={(value) => setValue(variable.name, value)}
              onProblem={(message) =>
                setErrors((current) => ({
                  ...current,
                  values: message
                    ? { ...current.values, [variable.name]: message }
                    : current.values,
                }))
              }
            />
          </FormField>
        ) : (
          <FormField
            key={variable.name}
            label={variable.label}
            description={`{{${variable.name}}}`}
            error={errors.values[variable.name]}
          >
            <Input
              value={values[variable.name] ?? ''}
              placeholder={variable.example || undefined}
              disabled={busy}
              autoComplete="off"
              onChange={(event) => setValue(variable.name, event.target.value)}
            />
          </FormField>
        ),
      )}

      <FormField
        label="Project name"
        description="Made from the template’s name and your first value until you change it."
        error={errors.name}
      >
        <Input
          value={name}
          disabled={busy}
          autoComplete="off"
          onChange={(event) => {
            setCustomName(event.target.value)
            setErrors((current) => ({ values: current.values, form: current.form }))
          }}
        />
      </FormField>

      {errors.form ? (
        <p role="alert" className="font-medium text-destructive text-sm">
          {errors.form}
        </p>
      ) : null}

      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button type="submit" variant="outline" disabled={busy}>
          {pending === 'project' ? <Spinner /> : <PlusIcon aria-hidden />}
          {pending === 'project' ? 'Creating...' : 'Create project'}
        </Button>
        <Button type="button" disabled={busy} onClick={() => void submit(true)}>
          {pending === 'video' ? <Spinner /> : <ClapperboardIcon aria-hidden />}
          {pending === 'video' ? 'Starting the video...' : 'Create and make video'}
        </Button>
      </div>
    </form>
  )
}
