import type { ProjectRunOutput } from '@reelgraph/shared'
import { PlayIcon } from 'lucide-react'
import { useState } from 'react'
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { errorMessage } from '@/lib/api-client'
import { fetchRunQuote, useRunStale } from '../api/run-api'
import { useCanEdit } from '../hooks/use-can-edit'
import { useCanvasStore } from '../hooks/use-canvas-store'
import { useProjectId } from '../hooks/use-generation'
import { runLines, runProgress, runSummary } from '../lib/run-summary'

/**
 * "Run stale" on the canvas (issue 42 item 4): asks the server what is stale and what running
 * it costs (the quote: nodes and credits), shows it for confirmation, then starts the run; while
 * its jobs go on the button says how many ended. Errors in words (402: the balance is short,
 * nothing charged). Editors only.
 */
export function RunStaleButton() {
  const projectId = useProjectId()
  const canEdit = useCanEdit()
  const [quote, setQuote] = useState<ProjectRunOutput | null>(null)
  const [quoting, setQuoting] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)
  const [started, setStarted] = useState<ProjectRunOutput | null>(null)
  const run = useRunStale()
  const progress = useCanvasStore((s) => {
    if (!started) return null
    const p = runProgress(started, (id) => s.nodes.find((n) => n.id === id)?.data)
    return `${p.done}/${p.total}/${p.failed}`
  })
  const [done, total, failed] = (progress ?? '0/0/0').split('/').map(Number) as [
    number,
    number,
    number,
  ]
  const running = started !== null && done < total

  const openQuote = async () => {
    if (projectId === null) return
    setQuoting(true)
    setFailure(null)
    try {
      setQuote(await fetchRunQuote(projectId))
    } catch (error) {
      setFailure(errorMessage(error, 'The price of the run could not be read.'))
      setQuote({ nodes: [], credits: 0, skipped: [] })
    } finally {
      setQuoting(false)
    }
  }

  const confirm = async () => {
    if (projectId === null) return
    setFailure(null)
    try {
      const answer = await run.mutateAsync({ projectId })
      setStarted(answer.nodes.length > 0 ? answer : null)
      setQuote(null)
    } catch (error) {
      setFailure(errorMessage(error, 'The run could not start.'))
    }
  }

  const label = running
    ? `Running stale ${done}/${total}`
    : started && failed > 0
      ? `Run stale (${failed} did not run)`
      : 'Run stale'
  return (
    <>
      <Button
        type="button"
        variant="ghost"
        size="sm"
        className="h-8"
        disabled={!canEdit || quoting || running || projectId === null}
        aria-busy={quoting || running || undefined}
        title="Run only the generators whose inputs changed, priced first"
        onClick={() => void openQuote()}
      >
        {quoting || running ? <Spinner /> : <PlayIcon aria-hidden />}
        {label}
      </Button>
      <AlertDialog
        open={quote !== null}
        onOpenChange={(open) => {
          if (!open && !run.isPending) setQuote(null)
        }}
      >
        <AlertDialogContent aria-busy={run.isPending || undefined}>
          <AlertDialogHeader>
            <AlertDialogTitle>Run stale nodes</AlertDialogTitle>
            <AlertDialogDescription>
              {quote && quote.nodes.length > 0
                ? `Runs ${runSummary(quote)}, each after the inputs it reads. Unchanged results are kept.`
                : 'Nothing is stale: every result was made from its inputs as they are now.'}
            </AlertDialogDescription>
          </AlertDialogHeader>
          {quote && quote.nodes.length > 0 ? (
            <ul aria-label="Nodes to run" className="list-disc pl-5 text-sm">
              {runLines(quote).map((line, i) => (
                <li key={quote.nodes[i]!.nodeId}>{line}</li>
              ))}
            </ul>
          ) : null}
          {quote && quote.skipped.length > 0 ? (
            <div className="text-muted-foreground text-xs">
              <p>Left out:</p>
              <ul aria-label="Nodes left out" className="list-disc pl-5">
                {quote.skipped.map((s) => (
                  <li key={s.nodeId}>
                    {s.nodeId}: {s.reason}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          {failure ? (
            <p role="alert" className="font-medium text-destructive text-sm">
              {failure}
            </p>
          ) : null}
          <AlertDialogFooter>
            <AlertDialogCancel disabled={run.isPending}>
              {quote && quote.nodes.length > 0 ? 'Cancel' : 'Close'}
            </AlertDialogCancel>
            {quote && quote.nodes.length > 0 ? (
              <Button type="button" disabled={run.isPending} onClick={() => void confirm()}>
                {run.isPending ? <Spinner /> : null}
                {run.isPending ? 'Starting...' : `Run · ${runSummary(quote)}`}
              </Button>
            ) : null}
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </>
  )
}
