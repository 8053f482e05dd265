/**
 * `Content-Disposition` for a download named `fileName` (RFC 6266): a quoted ASCII fallback
 * (other characters, quotes, backslashes and slashes as `_`) and the exact name in UTF-8
 * (`filename*`). The name should already be safe to save (shared's `safeFileName`).
 */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\/]/g, '_')
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`
}
