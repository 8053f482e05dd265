import type { ExportFormat } from '@reelgraph/shared'
import { DownloadIcon } from 'lucide-react'
import { useState } from 'react'
import { Button } from '@/components/ui/button'
import { toast } from '@/hooks/use-toast'
import { answeredFile, api, errorMessage } from '@/lib/api-client'
import { saveFile } from '@/lib/save-file'

const FORMATS: { format: ExportFormat; label: string }[] = [
  { format: 'otio', label: 'OTIO' },
  { format: 'fcpxml', label: 'FCPXML' },
]

/**
 * "Export OTIO" and "Export FCPXML" (issue 24 item 3): the timeline and its media as a ZIP
 * for an editor, from `POST /api/video/export`; busy while the ZIP downloads, the server's
 * words in a toast when it refuses (before a render, a changed narration). Disabled until
 * the Video node has a take.
 */
export function ExportButtons({
  projectId,
  nodeId,
  rendered,
}: {
  projectId: number
  nodeId: string
  rendered: boolean
}) {
  const [busy, setBusy] = useState<ExportFormat | null>(null)
  const run = async (format: ExportFormat) => {
    setBusy(format)
    try {
      const file = answeredFile(
        await api.POST('/video/export', {
          body: { projectId, nodeId, format },
          parseAs: 'blob',
        }),
        `timeline-${format}.zip`,
      )
      saveFile(file.blob, file.filename)
    } catch (error) {
      toast({ variant: 'destructive', title: 'Export failed', description: errorMessage(error) })
    } finally {
      setBusy(null)
    }
  }
  return (
    <div className="flex items-center gap-1" role="group" aria-label="Export for an editor">
      {FORMATS.map(({ format, label }) => (
        <Button
          key={format}
          type="button"
          size="sm"
          variant="outline"
          disabled={!rendered || busy !== null}
          title={rendered ? undefined : 'Render the video first'}
          onClick={() => void run(format)}
        >
          <DownloadIcon aria-hidden />
          {busy === format ? 'Exporting...' : `Export ${label}`}
        </Button>
      ))}
    </div>
  )
}
