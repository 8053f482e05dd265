import { SparklesIcon, WifiOffIcon } from 'lucide-react'
import { useId } from 'react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { Tooltip } from '@/components/ui/tooltip'
import { useCanEdit } from '../hooks/use-can-edit'
import type { GenerationInfo } from '../hooks/use-generation'
import { buttonLabelWithCost } from '../lib/generation'

/** What the "Offline draft" badge explains. */
export function offlineExplanation(providerName: string | undefined): string {
  return `${providerName ?? 'The built-in provider'} works offline: this makes a draft without an AI model. Configure an AI provider for real generations.`
}

/**
 * A generation button (Generate Script / Scenes / Image) with its cost ("Generate Script ·
 * 1 credit"). Disabled while `issue` (the spec §5 message, shown under it) or while busy
 * ("Generating...", which also blocks repeat clicks, spec §4). An "Offline draft" badge
 * says when the active provider is the offline one; `error` (the spec §8 alert of the last
 * failure) shows under it. Disabled for a viewer (issue 6 item 1).
 */
export function GenerateButton({
  label,
  info,
  issue,
  busy,
  error,
  onGenerate,
}: {
  label: string
  info: GenerationInfo
  issue: string | null
  busy: boolean
  error: string | null
  onGenerate: () => void
}) {
  const id = useId()
  const canEdit = useCanEdit()
  const explanation = offlineExplanation(info.providerName)
  return (
    <div className="grid gap-1">
      <Button
        type="button"
        size="sm"
        className="nodrag w-full"
        disabled={issue !== null || busy || !canEdit}
        aria-busy={busy || undefined}
        aria-describedby={issue ? `${id}-issue` : error ? `${id}-error` : undefined}
        onClick={onGenerate}
      >
        {busy ? <Spinner /> : <SparklesIcon aria-hidden />}
        {busy ? 'Generating...' : buttonLabelWithCost(label, info.cost)}
      </Button>
      {info.offline ? (
        <Tooltip content={explanation} className="max-w-60">
          <Badge
            variant="secondary"
            tabIndex={0}
            className="nodrag outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
            aria-label={`Offline draft: ${explanation}`}
          >
            <WifiOffIcon aria-hidden />
            Offline draft
          </Badge>
        </Tooltip>
      ) : null}
      {issue ? (
        <p id={`${id}-issue`} className="text-muted-foreground text-xs">
          {issue}
        </p>
      ) : error && !busy ? (
        <p id={`${id}-error`} role="alert" className="text-destructive text-xs">
          {error}
        </p>
      ) : null}
    </div>
  )
}
