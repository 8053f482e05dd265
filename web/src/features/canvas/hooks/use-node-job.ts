import { useMemo } from 'react'
import { type JobFields, type JobState, jobStateOf } from '../lib/job-state'
import { useCanvasStore } from './use-canvas-store'

/**
 * The job of a generator node, from its data in the document (issue 12: the server writes
 * it, every member sees it); null when it has none. A new object only when a job field
 * changed, not when the node's other fields did.
 */
export function useNodeJob(id: string): JobState | null {
  const data = useCanvasStore((s) => s.dataById.get(id)) as JobFields | undefined
  const { jobId, jobStatus, jobProgress, jobStage, jobMessage, jobRefunded, jobUpdatedAt } =
    data ?? {}
  return useMemo(
    () =>
      jobStateOf({
        jobId,
        jobStatus,
        jobProgress,
        jobStage,
        jobMessage,
        jobRefunded,
        jobUpdatedAt,
      }),
    [jobId, jobStatus, jobProgress, jobStage, jobMessage, jobRefunded, jobUpdatedAt],
  )
}
