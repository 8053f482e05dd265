import type { TemplateSummary } from '@reelgraph/shared'
import { RotateCwIcon } from 'lucide-react'
import { type ComponentType, useState } from 'react'
import { Button } from '@/components/ui/button'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog'
import { Spinner } from '@/components/ui/spinner'
import { errorMessage } from '@/lib/api-client'
import { useTemplates } from '../api/templates-api'
import { TEMPLATE_SECTIONS } from '../lib/template-words'
import { TemplateCard } from './template-card'
import { TemplateForm } from './template-form'

/**
 * What "Batch from a table…" shows inside the gallery (composed in `app/`: the batches
 * feature's panel): its own title, the table for `template`, Back to the gallery, and
 * `onDone` once the batch exists (the page moves to it).
 */
export interface BatchPanelProps {
  template: TemplateSummary
  onBack: () => void
  onDone: () => void
  onBusyChange: (busy: boolean) => void
}

/** Props of {@link TemplateGalleryDialog}. */
export interface TemplateGalleryDialogProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  /** The batch panel; absent, cards have no "Batch from a table…". */
  BatchPanel?: ComponentType<BatchPanelProps> | undefined
}

/** Where the dialog is: the gallery, a template's form, or its batch. */
type Step =
  | { kind: 'gallery' }
  | { kind: 'use'; template: TemplateSummary }
  | { kind: 'batch'; template: TemplateSummary }

/**
 * "New from template" (issue 42 items 2, 3): the gallery of the templates the person may use,
 * in sections Builtin, Yours and Your team’s, each a card; "Use template" turns the dialog
 * into the template's form, "Batch from a table…" into its batch panel, and Back returns.
 * Loading and failures are said in words, with Retry; the dialog cannot be dismissed while a
 * call runs.
 */
export function TemplateGalleryDialog({
  open,
  onOpenChange,
  BatchPanel,
}: TemplateGalleryDialogProps) {
  const [step, setStep] = useState<Step>({ kind: 'gallery' })
  const [busy, setBusy] = useState(false)
  const close = () => {
    setBusy(false)
    onOpenChange(false)
  }
  const blockWhileBusy = (event: Event) => {
    if (busy) event.preventDefault()
  }
  const back = () => setStep({ kind: 'gallery' })
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (busy) return
        onOpenChange(next)
        if (!next) setStep({ kind: 'gallery' })
      }}
    >
      <DialogContent
        className={step.kind === 'gallery' ? 'sm:max-w-5xl' : 'sm:max-w-2xl'}
        showCloseButton={!busy}
        onEscapeKeyDown={blockWhileBusy}
        onInteractOutside={blockWhileBusy}
        aria-busy={busy || undefined}
      >
        {step.kind === 'use' ? (
          <TemplateForm
            key={step.template.id}
            template={step.template}
            onBack={back}
            onDone={close}
            onBusyChange={setBusy}
          />
        ) : step.kind === 'batch' && BatchPanel ? (
          <BatchPanel
            key={step.template.id}
            template={step.template}
            onBack={back}
            onDone={close}
            onBusyChange={setBusy}
          />
        ) : (
          <Gallery
            enabled={open}
            onUse={(template) => setStep({ kind: 'use', template })}
            onBatch={BatchPanel ? (template) => setStep({ kind: 'batch', template }) : undefined}
          />
        )}
      </DialogContent>
    </Dialog>
  )
}

/** The gallery step: the list, in sections. */
function Gallery({
  enabled,
  onUse,
  onBatch,
}: {
  enabled: boolean
  onUse: (template: TemplateSummary) => void
  onBatch: ((template: TemplateSummary) => void) | undefined
}) {
  const templates = useTemplates(enabled)
  const list = templates.data?.templates
  return (
    <>
      <DialogHeader>
        <DialogTitle>New from template</DialogTitle>
        <DialogDescription>
          Start from a ready graph: fill in its variables for one project, or give it a table for a
          batch of videos.
        </DialogDescription>
      </DialogHeader>
      {list === undefined && templates.isError ? (
        <div role="alert" className="flex flex-wrap items-center gap-3 text-sm">
          <p className="flex-1 text-destructive">
            Couldn’t load the templates. {errorMessage(templates.error)}
          </p>
          <Button
            type="button"
            variant="outline"
            size="sm"
            disabled={templates.isFetching}
            onClick={() => void templates.refetch()}
          >
            {templates.isFetching ? <Spinner /> : <RotateCwIcon aria-hidden />}
            {templates.isFetching ? 'Retrying...' : 'Retry'}
          </Button>
        </div>
      ) : list === undefined ? (
        <output className="flex items-center gap-3 py-10 text-muted-foreground" aria-live="polite">
          <Spinner className="size-5 text-primary" />
          Loading templates...
        </output>
      ) : (
        <div className="grid gap-6">
          {TEMPLATE_SECTIONS.map(({ source, heading }) => {
            const mine = list.filter((t) => t.source === source)
            if (mine.length === 0 && source !== 'yours') return null
            return (
              <section key={source} aria-label={heading} className="grid gap-3">
                <h3 className="font-medium text-muted-foreground text-sm">{heading}</h3>
                {mine.length === 0 ? (
                  <p className="text-muted-foreground text-sm">
                    None yet: “Save as template…” on a project’s card puts one here.
                  </p>
                ) : (
                  <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
                    {mine.map((template) => (
                      <li key={template.id} className="flex min-w-0 flex-col *:flex-1">
                        <TemplateCard template={template} onUse={onUse} onBatch={onBatch} />
                      </li>
                    ))}
                  </ul>
                )}
              </section>
            )
          })}
        </div>
      )}
    </>
  )
}
