import { SparklesIcon, WifiOffIcon } from 'lucide-react'
import { useId } from 'react'
import { Link } from 'wouter'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { Tooltip } from '@/components/ui/tooltip'
import { useAccountSnapshot } from '@/hooks/use-account-snapshot'
import { useCanEdit } from '../hooks/use-can-edit'
import type { GenerationInfo } from '../hooks/use-generation'
import { buttonLabelWithCost, creditShortfall } from '../lib/generation'
import type { JobAction, JobState } from '../lib/job-state'
import { JobStatus } from './job-status'

/** What the "Offline draft" badge explains. */
export function offlineExplanation(providerName: string | undefined): string {
  return `${providerName ?? 'The built-in provider'} works offline: this makes a draft without an AI model. Configure an AI provider for real generations.`
}

/**
 * A generation button (Generate Script / Scenes / Image) with its cost ("Generate Script ·
 * 1 credit"). Disabled while `issue` (the spec §5 message, shown under it) or while busy
 * ("Generating...": the node's job is queued or running, or this tab's call is on its way;
 * it also blocks repeat clicks, spec §4). An "Offline draft" badge says when the active
 * provider is the offline one; the node's job shows under it (issue 12), and `error` (the
 * spec §8 alert of this tab's last failed call). Disabled for a viewer (issue 6 item 1),
 * and while the credit balance is below `info.cost`, saying so with a link to
 * /subscription (issue 14 item 8).
 */
export function GenerateButton({
  label,
  action,
  info,
  issue,
  busy,
  error,
  job,
  onGenerate,
  busyLabel = 'Generating...',
  offline,
  stale = false,
}: {
  label: string
  /** What the button says while busy. */
  busyLabel?: string
  /**
   * The badge and its explanation when the node's own model is offline (issue 22: "Offline
   * motion draft"); default the provider's "Offline draft".
   */
  offline?: { label: string; explanation: string }
  action: JobAction
  info: GenerationInfo
  issue: string | null
  busy: boolean
  error: string | null
  job: JobState | null
  onGenerate: () => void
  /**
   * True when the node's result was made from inputs that changed since (issue 42 item 4):
   * "Stale" shows beside the button.
   */
  stale?: boolean
}) {
  const id = useId()
  const canEdit = useCanEdit()
  const explanation = offline?.explanation ?? offlineExplanation(info.providerName)
  const offlineLabel = offline?.label ?? 'Offline draft'
  const shortfall = creditShortfall(useAccountSnapshot().credits, info.cost)
  const describedBy = issue
    ? `${id}-issue`
    : shortfall && !busy
      ? `${id}-credits`
      : error
        ? `${id}-error`
        : undefined
  return (
    <div className="grid gap-1">
      <Button
        type="button"
        size="sm"
        className="nodrag w-full"
        disabled={issue !== null || shortfall !== null || busy || !canEdit}
        aria-busy={busy || undefined}
        aria-describedby={describedBy}
        onClick={onGenerate}
      >
        {busy ? <Spinner /> : <SparklesIcon aria-hidden />}
        {busy ? busyLabel : buttonLabelWithCost(label, info.cost)}
      </Button>
      {info.offline ? (
        <Tooltip content={explanation} className="max-w-60">
          <Badge
            variant="secondary"
            tabIndex={0}
            className="nodrag outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
            aria-label={`${offlineLabel}: ${explanation}`}
          >
            <WifiOffIcon aria-hidden />
            {offlineLabel}
          </Badge>
        </Tooltip>
      ) : null}
      {stale ? (
        <Badge
          variant="outline"
          className="w-fit border-amber-500/60 text-amber-800 dark:text-amber-200"
          title="An input changed since this result was made. Run it again, or use Run stale."
        >
          Stale
        </Badge>
      ) : null}
      <JobStatus action={action} job={job} />
      {issue ? (
        <p id={`${id}-issue`} className="text-muted-foreground text-xs">
          {issue}
        </p>
      ) : shortfall && !busy ? (
        <p id={`${id}-credits`} className="text-muted-foreground text-xs">
          {shortfall}{' '}
          <Link
            href="/subscription"
            className="nodrag font-medium text-primary underline underline-offset-4"
          >
            Get credits
          </Link>
        </p>
      ) : error && !busy ? (
        <p id={`${id}-error`} role="alert" className="text-destructive text-xs">
          {error}
        </p>
      ) : null}
    </div>
  )
}
