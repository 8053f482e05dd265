import { BATCH_CSV_MAX_BYTES, BATCH_MAX_ROWS, type TemplateSummary } from '@reelgraph/shared'
import { ArrowLeftIcon, DownloadIcon, FileUpIcon, ReceiptTextIcon } from 'lucide-react'
import { type FormEvent, useId, useRef, useState } from 'react'
import { useLocation } from 'wouter'
import { Button } from '@/components/ui/button'
import { DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Label } from '@/components/ui/label'
import { Spinner } from '@/components/ui/spinner'
import { errorMessage } from '@/lib/api-client'
import { useQuoteBatch } from '../api/batches-api'
import { batchCsvHeader, batchExampleCsv, batchExampleFileName, csvDataUrl } from '../lib/batch-csv'

/** Props of {@link BatchFromTablePanel} (the gallery's `BatchPanelProps`). */
export interface BatchFromTablePanelProps {
  template: TemplateSummary
  /** Back to the gallery. */
  onBack: () => void
  /** The batch exists: the dialog closes (the page moves to the batch). */
  onDone: () => void
  onBusyChange: (busy: boolean) => void
}

/** The page of batch `id`. */
export function batchHref(id: number): string {
  return `/batches/${String(id)}`
}

/**
 * "Batch from a table…" (issue 42 item 3), inside the template gallery: the header the
 * template needs (its variables' names) with "Download an example CSV" built from their
 * examples, a CSV file to choose (read into the text box) or CSV text to paste, and "Get the
 * quote", which sends it as `text/csv` (`POST /api/batches?templateId=`). The server's refusal
 * (naming the row or the limit) is shown as it is; a quote opens the batch's page.
 */
export function BatchFromTablePanel({
  template,
  onBack,
  onDone,
  onBusyChange,
}: BatchFromTablePanelProps) {
  const [, navigate] = useLocation()
  const quote = useQuoteBatch()
  const [csv, setCsv] = useState('')
  const [fileName, setFileName] = useState<string | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const fileInput = useRef<HTMLInputElement>(null)
  const textId = useId()
  const hintId = useId()
  const problemId = useId()
  const header = batchCsvHeader(template.variables)
  const example = batchExampleCsv(template.variables)
  const busy = quote.isPending

  const chooseFile = async (file: File | undefined) => {
    if (!file) return
    if (file.size > BATCH_CSV_MAX_BYTES) {
      setProblem(
        `“${file.name}” is larger than ${BATCH_CSV_MAX_BYTES / 1024 / 1024} MB, more than one batch reads (at most ${BATCH_MAX_ROWS} rows). Split it into several batches.`,
      )
      return
    }
    try {
      setCsv(await file.text())
      setFileName(file.name)
      setProblem(null)
    } catch {
      setProblem(`“${file.name}” could not be read. Choose it again.`)
    }
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (csv.trim() === '') {
      setProblem('Choose a CSV file or paste the table first.')
      return
    }
    setProblem(null)
    onBusyChange(true)
    try {
      const batch = await quote.mutateAsync({
        templateId: template.id,
        csv: new Blob([csv], { type: 'text/csv' }),
      })
      onBusyChange(false)
      onDone()
      navigate(batchHref(batch.id))
    } catch (error) {
      console.error('The batch table was refused.', error)
      setProblem(errorMessage(error, 'Couldn’t send the table. Please try again.'))
      onBusyChange(false)
    }
  }

  return (
    <form className="grid gap-4" onSubmit={(e) => void submit(e)} aria-busy={busy || undefined}>
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
        <DialogTitle>Batch from a table: “{template.name}”</DialogTitle>
        <DialogDescription>
          One project and one video per row of the table, at most {BATCH_MAX_ROWS} rows. You see the
          price and the time before anything runs.
        </DialogDescription>
      </DialogHeader>

      <div className="grid gap-2 rounded-md border bg-muted/40 p-3 text-sm">
        <p>
          The table’s first line names the template’s variables:{' '}
          <code className="rounded bg-background px-1.5 py-0.5 font-mono text-xs">{header}</code>
        </p>
        <ul className="list-inside list-disc text-muted-foreground text-xs">
          {template.variables.map((variable) => (
            <li key={variable.name}>
              <span className="font-mono">{variable.name}</span>: {variable.label}
              {variable.kind === 'image' ? ' (a picture’s /api/assets/… address)' : null}
              {variable.example ? `, e.g. “${variable.example}”` : null}
            </li>
          ))}
        </ul>
        <a
          href={csvDataUrl(example)}
          download={batchExampleFileName(template.name)}
          className="inline-flex w-fit items-center gap-1.5 font-medium text-primary text-sm underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
        >
          <DownloadIcon className="size-4" aria-hidden />
          Download an example CSV
        </a>
      </div>

      <div className="flex flex-wrap items-center gap-3">
        <Button
          type="button"
          variant="outline"
          disabled={busy}
          onClick={() => fileInput.current?.click()}
        >
          <FileUpIcon aria-hidden />
          Choose a CSV file…
        </Button>
        <span className="text-muted-foreground text-sm" aria-live="polite">
          {fileName
            ? `Read “${fileName}”: edit it below if you like.`
            : 'or paste the table below.'}
        </span>
        <input
          ref={fileInput}
          type="file"
          accept=".csv,text/csv"
          className="hidden"
          tabIndex={-1}
          aria-hidden
          data-testid="batch-csv-file"
          onChange={(event) => {
            const file = event.currentTarget.files?.[0]
            event.currentTarget.value = ''
            void chooseFile(file)
          }}
        />
      </div>

      <div className="grid gap-2">
        <Label htmlFor={textId}>CSV table</Label>
        <textarea
          id={textId}
          value={csv}
          disabled={busy}
          rows={7}
          spellCheck={false}
          placeholder={example.trimEnd()}
          aria-describedby={problem ? `${hintId} ${problemId}` : hintId}
          aria-invalid={problem ? true : undefined}
          className="w-full min-w-0 rounded-md border border-input bg-transparent px-3 py-2 font-mono text-sm shadow-xs outline-none placeholder:text-muted-foreground focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:opacity-50 aria-invalid:border-destructive"
          onChange={(event) => {
            setCsv(event.target.value)
            setProblem(null)
          }}
        />
        <p id={hintId} className="text-muted-foreground text-xs">
          Commas between values; put a value that holds a comma in double quotes: "Tea, green".
        </p>
        {problem ? (
          <p id={problemId} role="alert" className="font-medium text-destructive text-sm">
            {problem}
          </p>
        ) : null}
      </div>

      <div className="flex justify-end">
        <Button type="submit" disabled={busy}>
          {busy ? <Spinner /> : <ReceiptTextIcon aria-hidden />}
          {busy ? 'Getting the quote...' : 'Get the quote'}
        </Button>
      </div>
    </form>
  )
}
