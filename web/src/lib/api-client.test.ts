import { userSchema } from '@reelgraph/shared'
import { QueryClient } from '@tanstack/react-query'
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  ApiError,
  answeredFile,
  createApiClient,
  dispositionFilename,
  errorMessage,
  fileBody,
  getQueryFn,
  NetworkError,
} from './api-client'

// Node's Request needs an absolute URL; in the browser the app's client uses `/api` itself.
const api = createApiClient('http://localhost/api')

/** Stubs the global fetch (the network edge); the client hands it a Request. */
function stubFetch(respond: (request: Request) => Response | Promise<Response>) {
  const fn = vi.fn(async (request: Request) => respond(request))
  vi.stubGlobal('fetch', fn)
  return fn
}

/** The one Request the stub received. */
function sent(fn: ReturnType<typeof stubFetch>): Request {
  const request = fn.mock.calls[0]?.[0]
  if (!request) throw new Error('Nothing was sent')
  return request
}

function json(body: unknown, status = 200, statusText = 'OK'): Response {
  return new Response(JSON.stringify(body), {
    status,
    statusText,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  })
}

const ADA = {
  id: 1,
  name: 'Ada',
  email: 'ada@example.com',
  credits: 20,
  subscriptionStatus: 'inactive',
  subscriptionPeriodEnd: null,
  emailVerified: true,
  createdAt: '2026-12-01T10:00:00.000Z',
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('the typed client', () => {
  it('sends the session cookie and a JSON body with its content type to the contract path', async () => {
    const fetchFn = stubFetch(() => json({ ok: true }, 201, 'Created'))
    const { data } = await api.POST('/login', {
      body: { email: 'ada@example.com', password: 'correct horse' },
    })
    expect(data).toEqual({ ok: true })
    const request = sent(fetchFn)
    expect(request.url).toBe('http://localhost/api/login')
    expect(request.method).toBe('POST')
    expect(request.credentials).toBe('include')
    expect(request.headers.get('content-type')).toBe('application/json')
    expect(await request.text()).toBe('{"email":"ada@example.com","password":"correct horse"}')
  })

  it('sends no content type and no body when there is no body', async () => {
    const fetchFn = stubFetch(() => json({ ok: true }))
    await api.POST('/logout')
    const request = sent(fetchFn)
    expect(request.headers.get('content-type')).toBeNull()
    expect(request.body).toBeNull()
    expect(request.credentials).toBe('include')
  })

  it('fills path parameters, encoded, and query parameters', async () => {
    const fetchFn = stubFetch(() => json({ ok: true }))
    await api.GET('/invitations/{token}', { params: { path: { token: 'a/b c' } } })
    expect(sent(fetchFn).url).toBe('http://localhost/api/invitations/a%2Fb%20c')
    fetchFn.mockClear()
    await api.GET('/video/narrations', { params: { query: { projectId: '7', nodeId: 'v 1' } } })
    expect(sent(fetchFn).url).toBe('http://localhost/api/video/narrations?projectId=7&nodeId=v%201')
  })

  it('raises "<status>: <body text>" with the server message, code and fields of a JSON error', async () => {
    const body = {
      error: {
        code: 'VALIDATION_FAILED',
        message: 'Check the highlighted fields.',
        fields: { email: 'Please enter a valid email address' },
      },
    }
    stubFetch(() => json(body, 400, 'Bad Request'))
    const error = await api
      .POST('/register', { body: { name: 'Ada', email: 'x', password: 'p' } })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    const apiError = error as ApiError
    expect(apiError.message).toBe(`400: ${JSON.stringify(body)}`)
    expect(apiError.status).toBe(400)
    expect(apiError.code).toBe('VALIDATION_FAILED')
    expect(apiError.serverMessage).toBe('Check the highlighted fields.')
    expect(apiError.fields).toEqual({ email: 'Please enter a valid email address' })
    expect(errorMessage(apiError)).toBe('Check the highlighted fields.')
  })

  it('uses a plain-text body as both the message tail and the server message', async () => {
    stubFetch(
      () => new Response('Too many attempts', { status: 429, statusText: 'Too Many Requests' }),
    )
    const error = (await api
      .POST('/login', { body: { email: 'a@b.c', password: 'p' } })
      .catch((e: unknown) => e)) as ApiError
    expect(error.message).toBe('429: Too many attempts')
    expect(error.serverMessage).toBe('Too many attempts')
    expect(error.code).toBeUndefined()
  })

  it('falls back to the status text when the body is empty', async () => {
    stubFetch(() => new Response(null, { status: 502, statusText: 'Bad Gateway' }))
    const error = (await api.GET('/user').catch((e: unknown) => e)) as ApiError
    expect(error.message).toBe('502: Bad Gateway')
    expect(error.serverMessage).toBe('Bad Gateway')
  })

  it('turns a transport failure into a NetworkError', async () => {
    stubFetch(() => Promise.reject(new TypeError('Failed to fetch')))
    const error = await api.GET('/user').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(NetworkError)
    expect(errorMessage(error)).toMatch(/Could not reach the server/)
  })

  it('leaves an abort as it is', async () => {
    const aborted = new DOMException('The operation was aborted.', 'AbortError')
    stubFetch(() => Promise.reject(aborted))
    const controller = new AbortController()
    controller.abort()
    await expect(api.GET('/user', { signal: controller.signal })).rejects.toBe(aborted)
  })
})

describe('getQueryFn', () => {
  function run<T>(fn: ReturnType<typeof getQueryFn<T>>) {
    const client = new QueryClient()
    return client.fetchQuery({ queryKey: ['/user'], queryFn: fn, retry: false })
  }
  const call = ({ signal }: { signal: AbortSignal }) => api.GET('/user', { signal })
  const user = (on401: 'throw' | 'returnNull') =>
    on401 === 'throw'
      ? getQueryFn({ on401, schema: userSchema, what: 'your account', call })
      : getQueryFn({ on401, schema: userSchema, what: 'your account', call })

  it('makes the typed call and checks the answer with the schema', async () => {
    const fetchFn = stubFetch(() => json(ADA))
    await expect(run(user('throw'))).resolves.toEqual(ADA)
    expect(sent(fetchFn).url).toBe('http://localhost/api/user')
  })

  it('fails with the words of parseAnswer when the answer does not match', async () => {
    stubFetch(() => json({ id: 'one' }))
    await expect(run(user('throw'))).rejects.toThrow(
      'The server gave an unexpected answer to your account.',
    )
  })

  it('turns a 401 into null when asked to', async () => {
    stubFetch(() =>
      json({ error: { code: 'UNAUTHENTICATED', message: 'Sign in' } }, 401, 'Unauthorized'),
    )
    await expect(run(user('returnNull'))).resolves.toBeNull()
  })

  it('raises a 401 by default', async () => {
    stubFetch(() => new Response('Unauthorized', { status: 401, statusText: 'Unauthorized' }))
    const error = await run(user('throw')).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect((error as ApiError).message).toBe('401: Unauthorized')
  })

  it('still raises other errors when 401 turns into null', async () => {
    stubFetch(() => new Response('', { status: 500, statusText: 'Internal Server Error' }))
    const error = await run(user('returnNull')).catch((e: unknown) => e)
    expect((error as ApiError).message).toBe('500: Internal Server Error')
  })
})

describe('fileBody', () => {
  it('sends the file itself as the body with its type, and reads the answer', async () => {
    const fetchFn = stubFetch(() => json({ url: '/api/assets/x', durationMs: 1000 }, 201))
    const file = new Blob(['RIFF'], { type: 'audio/wav' })
    const { data } = await api.POST('/assets/audio', {
      params: { query: { projectId: '1' } },
      ...fileBody(file),
    })
    expect(data).toEqual({ url: '/api/assets/x', durationMs: 1000 })
    const request = sent(fetchFn)
    expect(request.url).toBe('http://localhost/api/assets/audio?projectId=1')
    expect(request.method).toBe('POST')
    expect(request.credentials).toBe('include')
    expect(request.headers.get('content-type')).toBe('audio/wav')
    expect(await request.text()).toBe('RIFF')
  })

  it('sends another content type when told, and a refusal is an ApiError with its message', async () => {
    const fetchFn = stubFetch(() =>
      json({ error: { code: 'BAD_REQUEST', message: 'This is not audio.' } }, 400, 'Bad Request'),
    )
    const upload = api.POST('/assets/audio', {
      params: { query: { projectId: '1' } },
      ...fileBody(new Blob(['hi'], { type: 'text/plain' }), 'application/octet-stream'),
    })
    await expect(upload).rejects.toMatchObject({ status: 400, serverMessage: 'This is not audio.' })
    expect(sent(fetchFn).headers.get('content-type')).toBe('application/octet-stream')
  })
})

describe('answeredFile', () => {
  it('reads a file answer and names it as Content-Disposition says', async () => {
    const fetchFn = stubFetch(
      () =>
        new Response(new Uint8Array([80, 75, 3, 4]), {
          headers: {
            'content-type': 'application/zip',
            'content-disposition':
              'attachment; filename="Caf_ - OTIO.zip"; filename*=UTF-8\'\'Caf%C3%A9%20-%20OTIO.zip',
          },
        }),
    )
    const file = answeredFile(
      await api.POST('/video/export', {
        body: { projectId: 1, nodeId: 'video-1-a', format: 'otio' },
        parseAs: 'blob',
      }),
      'export.zip',
    )
    expect(file.filename).toBe('Café - OTIO.zip')
    expect(new Uint8Array(await file.blob.arrayBuffer())).toEqual(new Uint8Array([80, 75, 3, 4]))
    const request = sent(fetchFn)
    expect(request.url).toBe('http://localhost/api/video/export')
    expect(await request.json()).toEqual({ projectId: 1, nodeId: 'video-1-a', format: 'otio' })
  })

  it('falls back to the given name, and a refusal is an ApiError with its message', async () => {
    const body = { projectId: 1, nodeId: 'video-1-a', format: 'otio' } as const
    stubFetch(() => new Response('zip', { headers: { 'content-type': 'application/zip' } }))
    const answer = await api.POST('/video/export', { body, parseAs: 'blob' })
    expect(answeredFile(answer, 'export.zip').filename).toBe('export.zip')
    stubFetch(() =>
      json({ error: { code: 'NOT_RENDERED', message: 'Render this video first.' } }, 409),
    )
    await expect(api.POST('/video/export', { body, parseAs: 'blob' })).rejects.toMatchObject({
      status: 409,
      serverMessage: 'Render this video first.',
    })
  })

  it('reads plain and quoted file names', () => {
    expect(dispositionFilename('attachment; filename=film.zip')).toBe('film.zip')
    expect(dispositionFilename('attachment; filename="my film.zip"')).toBe('my film.zip')
    expect(dispositionFilename('attachment')).toBeNull()
    expect(dispositionFilename(null)).toBeNull()
  })
})
