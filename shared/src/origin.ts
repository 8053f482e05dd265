/**
 * The one origin rule of REST and sync (issue 11 item 3): a browser request may change
 * state, or open the sync socket, when its `Origin` is the app's own: one of
 * `allowedOrigins` (APP_URL's origin and ALLOWED_ORIGINS), or an origin whose host
 * (hostname and port) equals the `Host` the request was sent to. So the app works at
 * `http://localhost:3000`, `http://127.0.0.1:3000` and behind a proxy that keeps `Host`.
 *
 * @param origin the request's `Origin` header (a serialized origin such as
 *   `https://app.example.com`); a missing, `null` or malformed one is not allowed here (the
 *   caller decides what a request without one may do)
 * @param host the request's `Host` header, when it has one
 * @param allowedOrigins serialized origins, as `new URL(x).origin` gives them
 */
export function isAllowedOrigin(
  origin: string | null | undefined,
  host: string | null | undefined,
  allowedOrigins: readonly string[],
): boolean {
  if (!origin || origin === 'null') return false
  let url: URL
  try {
    url = new URL(origin)
  } catch {
    return false
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false
  return allowedOrigins.includes(url.origin) || (!!host && url.host === host.toLowerCase())
}
