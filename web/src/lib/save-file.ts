/**
 * Saves `blob` as a download named `filename`, through a temporary object URL (revoked after
 * 10 s, once the browser has started the download). Used by the timeline's exports (issue 24
 * item 3) and "Export graph" (issue 42 item 2).
 */
export function saveFile(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = filename
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
