import { type GenerationAction, isJobFinished } from '@reelgraph/shared'
import { type UseMutationResult, useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useRef, useState } from 'react'
import { toast } from '@/hooks/use-toast'
import { isApiError } from '@/lib/api-client'
import { type GenerationAnswer, type JobTarget, refreshCredits } from '../api/ai-api'
import { generationFailureMessage } from '../lib/generation'
import {
  isJobActive,
  jobFailureAlert,
  type JobFields,
  type JobState,
  jobStateOf,
} from '../lib/job-state'
import { useCanvasStoreApi } from './use-canvas-store'
import { type GenerationInfo, useGenerationInfo, useProjectId } from './use-generation'
import { useNodeJob } from './use-node-job'

/** What a generator node makes: a generation of spec §7, or a clip (issue 22). */
export type NodeAction = GenerationAction | 'clip'

/** A generator node's Generate: what its button shows (with the node's job), and the call. */
export interface NodeGeneration<TIn> {
  /**
   * The Generate button's action, cost, provider, busy state, last failure, and the node's
   * job (issue 12) as the document says (null when it has none).
   */
  button: {
    action: NodeAction
    info: GenerationInfo
    busy: boolean
    error: string | null
    job: JobState | null
  }
  /** Sends `request` with this project and node as the target; the server writes the result. */
  generate: (request: TIn) => void
}

/** A failed call, and the node's job when it was made (to tell whether a job took it over). */
interface CallFailure {
  message: string
  jobIdAtClick: string | null
}

/**
 * The Generate wiring every generator node shares (spec §4, issue 12). The call names this
 * project and node (`projectId`, `nodeId`), and the server runs it as a job: it writes the
 * job's state onto the node and the result node(s) into the document, for every member, so
 * nothing is lost when this tab closes. So:
 *
 * - busy (one call at a time, spec §4) while the node's job is queued or running, which a
 *   second tab sees too, or while this tab's call has not answered yet;
 * - a call that fails is the spec §8 alert: a destructive toast, and under the button until
 *   the next try (under the button only while no newer job is on the node: a job's failure
 *   shows in its state); a job cancelled while the call waited (409 `JOB_CANCELLED`) is no
 *   failure: the node says "Cancelled";
 * - a 202 (the job goes on past the server's wait) is no failure: when that job fails later,
 *   this tab toasts the alert then;
 * - whenever this tab sees a job end, the credits are refetched (a failure or a cancel may
 *   have refunded them).
 */
export function useNodeGeneration<TOut, TIn extends object>(
  id: string,
  action: NodeAction,
  mutation: UseMutationResult<GenerationAnswer<TOut>, Error, TIn & JobTarget>,
  /** The cost and provider when the node's model says them (a clip's catalog model). */
  infoOverride?: GenerationInfo,
): NodeGeneration<TIn> {
  const providerInfo = useGenerationInfo(action === 'clip' ? null : action)
  const info = infoOverride ?? providerInfo
  const projectId = useProjectId()
  const job = useNodeJob(id)
  const store = useCanvasStoreApi()
  const queryClient = useQueryClient()
  const { mutateAsync, isPending } = mutation
  const running = useRef(false)
  const followed = useRef<string | null>(null)
  const lastSeen = useRef<{ id: string; active: boolean } | null>(null)
  const [failure, setFailure] = useState<CallFailure | null>(null)

  const currentJob = useCallback((): JobState | null => {
    const data = store.getState().dataById.get(id) as JobFields | undefined
    return data ? jobStateOf(data) : null
  }, [store, id])

  // A job this tab started and got a 202 for: its failure is this tab's alert.
  const settleFollowed = useCallback(() => {
    const jobId = followed.current
    const now = currentJob()
    if (jobId === null || now?.id !== jobId || !isJobFinished(now.status)) return
    followed.current = null
    if (now.status === 'failed') {
      toast({ title: jobFailureAlert(action, now), variant: 'destructive' })
    }
  }, [action, currentJob])

  useEffect(() => {
    settleFollowed()
    const was = lastSeen.current
    lastSeen.current = job ? { id: job.id, active: isJobActive(job) } : null
    if (job && was?.id === job.id && was.active && !isJobActive(job)) {
      void refreshCredits(queryClient)
    }
  }, [job, settleFollowed, queryClient])

  const generate = (request: TIn) => {
    if (running.current || isJobActive(job) || projectId === null) return
    // Said before anything is paid for (issue 11); a result that still does not fit when the
    // worker writes it is not placed, and the node says so (shared `writeJobResult`).
    if (!store.getState().actions.hasRoomFor(1)) return
    running.current = true
    const jobIdAtClick = job?.id ?? null
    setFailure(null)
    mutateAsync({ ...request, projectId, nodeId: id })
      .then((answer) => {
        if (answer.kind === 'accepted') {
          followed.current = answer.job.jobId
          settleFollowed()
        }
      })
      .catch((error: unknown) => {
        // Cancelled while the call waited (409 JOB_CANCELLED): the node says so, no alert.
        if (isApiError(error, 409, 'JOB_CANCELLED')) return
        console.error(`generate ${action} failed`, error)
        const message = generationFailureMessage(action, error)
        toast({ title: message, variant: 'destructive' })
        setFailure({ message, jobIdAtClick })
      })
      .finally(() => {
        running.current = false
      })
  }

  // The call's failure shows under the button while no newer job is on the node.
  const error = failure && failure.jobIdAtClick === (job?.id ?? null) ? failure.message : null
  return {
    button: { action, info, busy: isPending || isJobActive(job), error, job },
    generate,
  }
}
