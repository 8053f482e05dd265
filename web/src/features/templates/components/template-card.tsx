import type { TemplateSummary } from '@reelgraph/shared'
import { ImageIcon, TableIcon, WandSparklesIcon } from 'lucide-react'
import { memo, useId, useState } from 'react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { TEMPLATE_SOURCE_LABELS, templateSettingsSummary } from '../lib/template-words'

/** Props of {@link TemplateCard}. */
export interface TemplateCardProps {
  template: TemplateSummary
  /** Opens the form of its variables. */
  onUse: (template: TemplateSummary) => void
  /** Opens "Batch from a table…" for it; absent, the card has no such button. */
  onBatch?: ((template: TemplateSummary) => void) | undefined
}

/**
 * One template in the gallery (issue 42 item 2): its preview frame, name, whose it is
 * (Builtin, Yours, Team), description, settings in one line ("9:16 · 30 s · 3 scenes · Bold
 * captions") and variables, with "Use template" and "Batch from a table…". An `article` named
 * by its name, so people and tests find a template by it.
 */
export const TemplateCard = memo(function TemplateCard({
  template,
  onUse,
  onBatch,
}: TemplateCardProps) {
  const titleId = useId()
  const variables = template.variables.map((v) => `{{${v.name}}}`).join(' ')
  return (
    <article
      aria-labelledby={titleId}
      className="flex min-w-0 flex-col gap-3 rounded-lg border bg-card p-3 text-card-foreground shadow-xs transition-shadow focus-within:shadow-md hover:shadow-md"
    >
      <TemplatePreview url={template.previewUrl} name={template.name} />
      <div className="flex min-w-0 flex-col gap-1">
        <div className="flex items-start justify-between gap-2">
          <h3 id={titleId} className="line-clamp-2 break-words font-semibold leading-tight">
            {template.name}
          </h3>
          <Badge variant={template.source === 'builtin' ? 'secondary' : 'outline'}>
            {TEMPLATE_SOURCE_LABELS[template.source]}
          </Badge>
        </div>
        {template.description ? (
          <p className="line-clamp-2 break-words text-muted-foreground text-sm">
            {template.description}
          </p>
        ) : null}
        <p className="text-xs">{templateSettingsSummary(template.settings)}</p>
        <p className="break-words text-muted-foreground text-xs">
          {variables ? `Asks for ${variables}` : 'No variables: every video from it is the same.'}
        </p>
      </div>
      <div className="mt-auto flex flex-wrap gap-2">
        <Button type="button" size="sm" className="flex-1" onClick={() => onUse(template)}>
          <WandSparklesIcon aria-hidden />
          Use template
        </Button>
        {onBatch ? (
          <Button
            type="button"
            size="sm"
            variant="outline"
            className="flex-1"
            disabled={template.variables.length === 0}
            title={
              template.variables.length === 0
                ? 'A batch needs a template with variables: one video per row of values.'
                : undefined
            }
            onClick={() => onBatch(template)}
          >
            <TableIcon aria-hidden />
            Batch from a table…
          </Button>
        ) : null}
      </div>
    </article>
  )
})

/** The preview frame, or a quiet placeholder when there is none (or it fails to load). */
function TemplatePreview({ url, name }: { url: string | null; name: string }) {
  const [failed, setFailed] = useState(false)
  return (
    <div className="flex aspect-video items-center justify-center overflow-hidden rounded-md bg-muted">
      {url && !failed ? (
        <img
          src={url}
          alt={`A frame of ${name}`}
          loading="lazy"
          className="size-full object-contain"
          onError={() => setFailed(true)}
        />
      ) : (
        <ImageIcon className="size-8 text-muted-foreground" aria-hidden />
      )}
    </div>
  )
}
