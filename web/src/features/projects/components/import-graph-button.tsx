import { GRAPH_FILE_EXTENSION, type ImportedProject } from '@reelgraph/shared'
import { UploadIcon } from 'lucide-react'
import { useRef } from 'react'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { useImportGraph } from '../api/graph-file-api'

/** Props of {@link ImportGraphButton}. */
export interface ImportGraphButtonProps {
  /** The file became a project (with what it left out, in `warnings`). */
  onImported: (project: ImportedProject) => void
  /** The file was refused or could not be sent: the reason, in words. */
  onFailed: (error: unknown, fileName: string) => void
}

/**
 * "Import graph…" (issue 42 item 2): a button that opens the file picker (a real button, so
 * keyboard and screen readers reach it; the file input itself is hidden) for a
 * `.reelgraph.json` file, and sends it to the server, busy until it answers.
 */
export function ImportGraphButton({ onImported, onFailed }: ImportGraphButtonProps) {
  const input = useRef<HTMLInputElement>(null)
  const importGraph = useImportGraph()
  const choose = async (file: File | undefined) => {
    if (!file) return
    try {
      onImported(await importGraph.mutateAsync(file))
    } catch (error) {
      console.error('Failed to import a graph file.', error)
      onFailed(error, file.name)
    }
  }
  return (
    <>
      <Button
        type="button"
        variant="outline"
        disabled={importGraph.isPending}
        onClick={() => input.current?.click()}
      >
        {importGraph.isPending ? <Spinner /> : <UploadIcon aria-hidden />}
        {importGraph.isPending ? 'Importing...' : 'Import graph…'}
      </Button>
      <input
        ref={input}
        type="file"
        accept={`${GRAPH_FILE_EXTENSION},.json,application/json`}
        className="hidden"
        tabIndex={-1}
        aria-hidden
        onChange={(event) => {
          const file = event.currentTarget.files?.[0]
          // The same file may be chosen again after a fix.
          event.currentTarget.value = ''
          void choose(file)
        }}
      />
    </>
  )
}
