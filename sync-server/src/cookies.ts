/**
 * The value of cookie `name` in a `Cookie` request header, percent-decoded, or undefined when
 * the header is missing, the cookie is absent or its value is malformed. The first occurrence
 * wins, as in browsers' own ordering (most specific path first).
 */
export function readCookie(header: string | null | undefined, name: string): string | undefined {
  if (!header) return undefined
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq === -1 || part.slice(0, eq).trim() !== name) continue
    let value = part.slice(eq + 1).trim()
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
      value = value.slice(1, -1)
    }
    try {
      return decodeURIComponent(value)
    } catch {
      return undefined
    }
  }
  return undefined
}
