import { QueryClient } from '@tanstack/react-query'
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  ApiError,
  apiPostForFile,
  apiRequest,
  apiUpload,
  dispositionFilename,
  errorMessage,
  getQueryFn,
  NetworkError,
} from './api-client'

function stubFetch(respond: (url: string, init?: RequestInit) => Response | Promise<Response>) {
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) =>
    respond(String(input), init),
  )
  vi.stubGlobal('fetch', fn)
  return fn
}

function json(body: unknown, status = 200, statusText = 'OK'): Response {
  return new Response(JSON.stringify(body), {
    status,
    statusText,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  })
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('apiRequest', () => {
  it('sends the session cookie and a JSON body with its content type', async () => {
    const fetchFn = stubFetch(() => json({ id: 1, name: 'Ada' }, 201, 'Created'))
    const user = await apiRequest('POST', '/api/register', { name: 'Ada' })
    expect(user).toEqual({ id: 1, name: 'Ada' })
    const [url, init] = fetchFn.mock.calls[0] ?? []
    expect(url).toBe('/api/register')
    expect(init?.method).toBe('POST')
    expect(init?.credentials).toBe('include')
    expect(init?.headers).toEqual({ 'Content-Type': 'application/json' })
    expect(init?.body).toBe('{"name":"Ada"}')
  })

  it('sends no content type and no body when there is no body', async () => {
    const fetchFn = stubFetch(() => json({ ok: true }))
    await apiRequest('POST', '/api/logout')
    const init = fetchFn.mock.calls[0]?.[1]
    expect(init?.headers).toBeUndefined()
    expect(init?.body).toBeUndefined()
    expect(init?.credentials).toBe('include')
  })

  it('reads a non-JSON answer as text', async () => {
    stubFetch(() => new Response('pong', { headers: { 'content-type': 'text/plain' } }))
    await expect(apiRequest('GET', '/api/ping')).resolves.toBe('pong')
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
    const error = await apiRequest('POST', '/api/register', {}).catch((e: unknown) => e)
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
    const error = (await apiRequest('POST', '/api/login', {}).catch((e: unknown) => e)) as ApiError
    expect(error.message).toBe('429: Too many attempts')
    expect(error.serverMessage).toBe('Too many attempts')
    expect(error.code).toBeUndefined()
  })

  it('falls back to the status text when the body is empty', async () => {
    stubFetch(() => new Response(null, { status: 502, statusText: 'Bad Gateway' }))
    const error = (await apiRequest('GET', '/api/user').catch((e: unknown) => e)) as ApiError
    expect(error.message).toBe('502: Bad Gateway')
    expect(error.serverMessage).toBe('Bad Gateway')
  })

  it('turns a transport failure into a NetworkError', async () => {
    stubFetch(() => Promise.reject(new TypeError('Failed to fetch')))
    const error = await apiRequest('GET', '/api/user').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(NetworkError)
    expect(errorMessage(error)).toMatch(/Could not reach the server/)
  })
})

describe('getQueryFn', () => {
  function run<T>(fn: ReturnType<typeof getQueryFn<T>>, url: string) {
    const client = new QueryClient()
    return client.fetchQuery({ queryKey: [url], queryFn: fn, retry: false })
  }

  it('uses the first element of the query key as the URL and parses JSON', async () => {
    const fetchFn = stubFetch(() => json({ credits: 20 }))
    await expect(run(getQueryFn({ on401: 'throw' }), '/api/user/credits')).resolves.toEqual({
      credits: 20,
    })
    expect(fetchFn.mock.calls[0]?.[0]).toBe('/api/user/credits')
    expect(fetchFn.mock.calls[0]?.[1]?.credentials).toBe('include')
  })

  it('turns a 401 into null when asked to', async () => {
    stubFetch(() =>
      json({ error: { code: 'UNAUTHENTICATED', message: 'Sign in' } }, 401, 'Unauthorized'),
    )
    await expect(run(getQueryFn({ on401: 'returnNull' }), '/api/user')).resolves.toBeNull()
  })

  it('raises a 401 by default', async () => {
    stubFetch(() => new Response('Unauthorized', { status: 401, statusText: 'Unauthorized' }))
    const error = await run(getQueryFn({ on401: 'throw' }), '/api/projects').catch(
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(ApiError)
    expect((error as ApiError).message).toBe('401: Unauthorized')
  })

  it('still raises other errors when 401 turns into null', async () => {
    stubFetch(() => new Response('', { status: 500, statusText: 'Internal Server Error' }))
    const error = await run(getQueryFn({ on401: 'returnNull' }), '/api/user').catch(
      (e: unknown) => e,
    )
    expect((error as ApiError).message).toBe('500: Internal Server Error')
  })
})

describe('apiUpload', () => {
  it('sends the file itself as the body with its type, and reads the answer', async () => {
    const fetchFn = stubFetch(() => json({ url: '/api/assets/x', durationMs: 1000 }, 201))
    const file = new Blob(['RIFF'], { type: 'audio/wav' })
    const answer = await apiUpload('/api/assets/audio?projectId=1', file)
    expect(answer).toEqual({ url: '/api/assets/x', durationMs: 1000 })
    const [url, init] = fetchFn.mock.calls[0] ?? []
    expect(url).toBe('/api/assets/audio?projectId=1')
    expect(init?.method).toBe('POST')
    expect(init?.credentials).toBe('include')
    expect(init?.headers).toEqual({ 'Content-Type': 'audio/wav' })
    expect(init?.body).toBe(file)
  })

  it('sends another content type when told, and a refusal is an ApiError with its message', async () => {
    const fetchFn = stubFetch(() =>
      json({ error: { code: 'BAD_REQUEST', message: 'This is not audio.' } }, 400, 'Bad Request'),
    )
    const upload = apiUpload(
      '/api/assets/audio?projectId=1',
      new Blob(['hi'], { type: 'text/plain' }),
      {
        contentType: 'application/octet-stream',
      },
    )
    await expect(upload).rejects.toMatchObject({ status: 400, serverMessage: 'This is not audio.' })
    expect(fetchFn.mock.calls[0]?.[1]?.headers).toEqual({
      'Content-Type': 'application/octet-stream',
    })
  })
})

describe('apiPostForFile', () => {
  it('posts the JSON body and names the file as Content-Disposition says', async () => {
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
    const file = await apiPostForFile('/api/video/export', { format: 'otio' }, 'export.zip')
    expect(file.filename).toBe('Café - OTIO.zip')
    expect(new Uint8Array(await file.blob.arrayBuffer())).toEqual(new Uint8Array([80, 75, 3, 4]))
    const [url, init] = fetchFn.mock.calls[0] ?? []
    expect(url).toBe('/api/video/export')
    expect(init?.method).toBe('POST')
    expect(init?.body).toBe(JSON.stringify({ format: 'otio' }))
  })

  it('falls back to the given name, and a refusal is an ApiError with its message', async () => {
    stubFetch(() => new Response('zip', { headers: { 'content-type': 'application/zip' } }))
    expect((await apiPostForFile('/x', {}, 'export.zip')).filename).toBe('export.zip')
    stubFetch(() =>
      json({ error: { code: 'NOT_RENDERED', message: 'Render this video first.' } }, 409),
    )
    await expect(apiPostForFile('/x', {}, 'export.zip')).rejects.toMatchObject({
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
