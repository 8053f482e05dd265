import { XIcon } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { toast } from '@/hooks/use-toast'
import { errorMessage } from '@/lib/api-client'
import { cn } from '@/lib/utils'
import { useCancelJob } from '../api/ai-api'
import { useCanEdit } from '../hooks/use-can-edit'
import {
  isJobActive,
  type JobAction,
  type JobState,
  jobStatusText,
  progressValueText,
  refundText,
} from '../lib/job-state'

/**
 * A generator node's job (issue 12) as every member sees it from the document, in the
 * Generate button's column: "Queued"; while running, a progress bar (its amount when the
 * provider reports one, else indeterminate) and the stage; the spec §8 alert and the refund
 * when it failed; "Cancelled". A succeeded job leaves the node as it always looks. The words
 * sit in a polite status region, so each change is announced; editors get Cancel while the
 * job is queued or running (viewers see the state only).
 */
export function JobStatus({ action, job }: { action: JobAction; job: JobState | null }) {
  const canEdit = useCanEdit()
  const cancel = useCancelJob()
  const active = isJobActive(job)
  const refund = job && !active ? refundText(job.refunded) : null
  const onCancel = () => {
    if (!job || cancel.isPending) return
    cancel.mutate(job.id, {
      onError: (error) => {
        console.error('cancel job failed', error)
        toast({
          title: 'Could not cancel the generation',
          description: errorMessage(error),
          variant: 'destructive',
        })
      },
    })
  }
  // Nothing to see without a job or after a success: the words are still there, for screen
  // readers only (out of the layout, so the node keeps its usual look).
  const hidden = !job || job.status === 'succeeded'
  return (
    <>
      {/* Always there, so assistive technology hears each change of the words inside. */}
      <div
        role="status"
        aria-live="polite"
        aria-atomic="true"
        className={cn(
          'grid gap-0.5 text-xs',
          hidden && 'sr-only',
          job?.status === 'failed' ? 'text-destructive' : 'text-muted-foreground',
        )}
      >
        {job ? <p className="break-words">{jobStatusText(action, job)}</p> : null}
        {refund ? <p className="text-muted-foreground">{refund}</p> : null}
      </div>
      {job?.status === 'running' ? (
        <div className="flex items-center gap-2">
          <JobProgress progress={job.progress} />
          {job.progress !== null ? (
            // The bar itself tells assistive technology; this is for the eye.
            <span className="text-muted-foreground text-xs tabular-nums" aria-hidden>
              {job.progress}%
            </span>
          ) : null}
        </div>
      ) : null}
      {active && canEdit ? (
        <Button
          type="button"
          size="sm"
          variant="outline"
          className="nodrag w-full"
          disabled={cancel.isPending}
          aria-busy={cancel.isPending || undefined}
          onClick={onCancel}
        >
          {cancel.isPending ? <Spinner /> : <XIcon aria-hidden />}
          Cancel
        </Button>
      ) : null}
    </>
  )
}

/** The running job's progress bar: its amount (0-100), or indeterminate when unknown. */
function JobProgress({ progress }: { progress: number | null }) {
  return (
    <div
      role="progressbar"
      aria-label="Generation progress"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={progress ?? undefined}
      aria-valuetext={progressValueText(progress)}
      className="relative h-1.5 w-full overflow-hidden rounded-full bg-muted"
    >
      {progress === null ? (
        <div className="absolute inset-y-0 left-0 w-1/3 animate-pulse rounded-full bg-primary/70" />
      ) : (
        <div
          className="h-full rounded-full bg-primary transition-[width]"
          style={{ width: `${progress}%` }}
        />
      )}
    </div>
  )
}
