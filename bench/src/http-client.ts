/**
 * A lean HTTP/1.1 client for load generators that share the machine with the server they
 * measure: `node:http` over one kept-alive connection per caller, the answer read off the
 * socket and dropped unless asked for. `fetch` (undici with web streams) cost the REST
 * autosave benchmark about 5 ms of CPU per 200 KB request and answer, half a core at 100
 * saves/s taken from whichever server was measured.
 */
import { Agent, request } from 'node:http'

/** The answer of one request: its status, and its body as text when `readBody` was set. */
export interface HttpAnswer {
  status: number
  ok: boolean
  /** The body as text; '' unless the request asked to read it (or it failed). */
  text: string
}

/**
 * A connection of its own for one simulated browser tab: requests through it go one at a
 * time over a single kept-alive socket, as a tab's autosave does.
 */
export function tabAgent(): Agent {
  return new Agent({ keepAlive: true, maxSockets: 1 })
}

/**
 * Sends one request and waits for its whole answer.
 * @param options.url absolute URL; `body` is sent as is with its byte length
 * @param options.readBody keep the answer's text (always kept for a status of 400 or more)
 * @throws on a network error (refused, reset)
 */
export function send(options: {
  url: string
  method: string
  headers: Record<string, string>
  body?: Buffer
  agent: Agent
  readBody?: boolean
}): Promise<HttpAnswer> {
  const { url, method, headers, body, agent, readBody = false } = options
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        agent,
        headers: body ? { ...headers, 'content-length': String(body.length) } : headers,
      },
      (res) => {
        const status = res.statusCode ?? 0
        const keep = readBody || status >= 400
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => {
          if (keep) chunks.push(chunk)
        })
        res.once('error', reject)
        res.once('end', () =>
          resolve({
            status,
            ok: status >= 200 && status < 300,
            text: keep ? Buffer.concat(chunks).toString('utf8') : '',
          }),
        )
      },
    )
    req.once('error', reject)
    req.end(body)
  })
}
