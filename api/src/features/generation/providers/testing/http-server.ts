import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A request the test server received, its body parsed as JSON when it is JSON. */
export interface RecordedRequest {
  method: string
  /** Path and query, e.g. `/v1/consumer/jobs?token=abc`. */
  url: string
  pathname: string
  query: URLSearchParams
  headers: IncomingMessage['headers']
  body: unknown
}

export type Handler = (request: RecordedRequest, response: ServerResponse) => void | Promise<void>

/**
 * A local HTTP server on 127.0.0.1, port 0, for provider tests: the real client speaks to
 * it over the network. `handle` sets how it answers; a handler that never answers makes
 * the client time out. `close` ends hanging connections too.
 */
export interface TestServer {
  url: string
  requests: RecordedRequest[]
  handle(handler: Handler): void
  close(): Promise<void>
}

export async function startTestServer(initial?: Handler): Promise<TestServer> {
  let handler: Handler = initial ?? ((_, res) => json(res, 404, { error: 'not found' }))
  const requests: RecordedRequest[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      let body: unknown = text
      try {
        body = text ? JSON.parse(text) : undefined
      } catch {
        // not JSON: keep the text
      }
      const url = new URL(req.url ?? '/', 'http://127.0.0.1')
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        pathname: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body,
      }
      requests.push(recorded)
      Promise.resolve(handler(recorded, res)).catch((error: unknown) => {
        if (!res.headersSent) json(res, 500, { error: String(error) })
      })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    handle(next) {
      handler = next
    },
    close() {
      server.closeAllConnections()
      return new Promise((resolve) => server.close(() => resolve()))
    },
  }
}

/** Answers JSON with `status`. */
export function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' })
  response.end(JSON.stringify(body))
}

/** Answers raw bytes with a content type. */
export function bytes(response: ServerResponse, contentType: string, data: Uint8Array): void {
  response.writeHead(200, { 'content-type': contentType, 'content-length': data.byteLength })
  response.end(data)
}

/** A handler that never answers: the client's timeout must end the call. */
export const never: Handler = () => undefined

/**
 * `handler`, except that a request `matching` first aborts `controller` and is answered
 * `delayMs` later: a job cancelled while the provider is taking that request (it has it; its
 * answer is on the way).
 */
export function abortingDuring(
  controller: AbortController,
  matching: (request: RecordedRequest) => boolean,
  handler: Handler,
  delayMs = 50,
): Handler {
  return async (request, response) => {
    if (matching(request)) {
      controller.abort()
      await new Promise((resolve) => setTimeout(resolve, delayMs))
    }
    await handler(request, response)
  }
}
