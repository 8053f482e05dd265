import {
  API_TOKEN_EXPIRY_DAYS_DEFAULT,
  API_TOKEN_NAME_MAX_LENGTH,
  type CreatedToken,
  TOKEN_SCOPE_LABELS,
  TOKEN_SCOPES,
  type TokenScope,
} from '@reelgraph/shared'
import { type FormEvent, useId, useState } from 'react'
import { Button } from '@/components/ui/button'
import { Checkbox } from '@/components/ui/checkbox'
import { FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { Spinner } from '@/components/ui/spinner'
import { errorMessage, isApiError } from '@/lib/api-client'
import { useProjects } from '@/lib/projects-api'
import { useCreateApiToken } from '../api/tokens-api'
import { EXPIRY_CHOICES, expiresInDaysOf } from '../lib/token-view'

/** `list` with `value` added (`on`) or removed. */
function toggle<T>(list: T[], value: T, on: boolean): T[] {
  return on ? [...list, value] : list.filter((v) => v !== value)
}

/** Props of {@link CreateTokenForm}. */
export interface CreateTokenFormProps {
  /** The token just made, with its secret: the page shows it once. */
  onCreated: (token: CreatedToken) => void
}

/**
 * The "New token" form (issue 41 item 1): a name, the scopes as checkboxes, optionally some
 * projects (none checked: every project), and the expiry. The server's words are shown under
 * the form when it refuses.
 */
export function CreateTokenForm({ onCreated }: CreateTokenFormProps) {
  const create = useCreateApiToken()
  const projects = useProjects()
  const ids = useId()
  const [name, setName] = useState('')
  const [scopes, setScopes] = useState<TokenScope[]>(['projects:read'])
  const [projectIds, setProjectIds] = useState<number[]>([])
  const [expiry, setExpiry] = useState(String(API_TOKEN_EXPIRY_DAYS_DEFAULT))
  const [problem, setProblem] = useState<string | null>(null)

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (!name.trim()) return setProblem('Give the token a name.')
    if (scopes.length === 0) return setProblem('Choose at least one scope.')
    setProblem(null)
    const days = expiresInDaysOf(expiry)
    try {
      const token = await create.mutateAsync({
        name: name.trim(),
        scopes,
        ...(projectIds.length ? { projectIds } : {}),
        ...(days === undefined ? {} : { expiresInDays: days }),
      })
      setName('')
      setProjectIds([])
      onCreated(token)
    } catch (error) {
      setProblem(
        isApiError(error) && error.fields
          ? Object.values(error.fields).join(' ')
          : errorMessage(error, 'The token could not be made. Please try again.'),
      )
    }
  }

  const busy = create.isPending
  return (
    <form
      aria-labelledby={`${ids}-title`}
      className="flex flex-col gap-4 rounded-xl border p-4"
      onSubmit={(event) => void submit(event)}
      noValidate
    >
      <h2 id={`${ids}-title`} className="font-semibold">
        New token
      </h2>
      <div className="grid grid-cols-[1fr_9rem] gap-3">
        <FormField label="Name">
          <Input
            value={name}
            maxLength={API_TOKEN_NAME_MAX_LENGTH}
            placeholder="e.g. Blog to video"
            onChange={(event) => setName(event.target.value)}
            autoComplete="off"
          />
        </FormField>
        <FormField label="Expires">
          <select
            value={expiry}
            onChange={(event) => setExpiry(event.target.value)}
            className="h-9 rounded-md border border-input bg-transparent px-2 text-sm shadow-xs outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50"
          >
            {EXPIRY_CHOICES.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </select>
        </FormField>
      </div>
      <fieldset>
        <legend className="mb-2 font-medium text-sm">Scopes</legend>
        <div className="grid grid-cols-2 gap-x-4 gap-y-2">
          {TOKEN_SCOPES.map((scope) => (
            <div key={scope} className="flex items-start gap-2">
              <Checkbox
                id={`${ids}-${scope}`}
                checked={scopes.includes(scope)}
                onCheckedChange={(on) => setScopes((s) => toggle(s, scope, on === true))}
                aria-describedby={`${ids}-${scope}-hint`}
                className="mt-0.5"
              />
              <div className="grid gap-0.5">
                <Label htmlFor={`${ids}-${scope}`}>{TOKEN_SCOPE_LABELS[scope].label}</Label>
                <span id={`${ids}-${scope}-hint`} className="text-muted-foreground text-xs">
                  {TOKEN_SCOPE_LABELS[scope].description}
                </span>
              </div>
            </div>
          ))}
        </div>
      </fieldset>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 font-medium text-sm">Projects</legend>
        <p className="text-muted-foreground text-xs">
          None checked: every project, and new ones. Checked: only those; others look as if they did
          not exist.
        </p>
        {projects.isPending ? (
          <p role="status" className="flex items-center gap-2 text-muted-foreground text-sm">
            <Spinner /> Loading your projects...
          </p>
        ) : projects.isError ? (
          <p className="text-muted-foreground text-sm">
            Could not load your projects: {errorMessage(projects.error)}
          </p>
        ) : (
          <div className="flex max-h-24 flex-col gap-1.5 overflow-y-auto pr-1">
            {projects.data.map((project) => (
              <div key={project.id} className="flex items-center gap-2">
                <Checkbox
                  id={`${ids}-project-${project.id}`}
                  checked={projectIds.includes(project.id)}
                  onCheckedChange={(on) => setProjectIds((p) => toggle(p, project.id, on === true))}
                />
                <Label htmlFor={`${ids}-project-${project.id}`} className="truncate font-normal">
                  {project.name}
                </Label>
              </div>
            ))}
          </div>
        )}
      </fieldset>
      {problem !== null ? (
        <p role="alert" className="font-medium text-destructive text-sm">
          {problem}
        </p>
      ) : null}
      <div>
        <Button type="submit" disabled={busy}>
          {busy ? <Spinner /> : null}
          {busy ? 'Making the token...' : 'Make token'}
        </Button>
      </div>
    </form>
  )
}
