import { api, type ApiGetPath } from './api-client'

/**
 * The contract at work (issue 41 item 4): calls that do not match the api's OpenAPI document
 * fail to typecheck. Each `@ts-expect-error` line must be an error, so
 * `tsc -p web/tsconfig.json` fails as soon as one of them would compile; the calls without it
 * must compile. Typechecked only, never run or bundled (nothing imports it).
 */
export async function contractChecks(projectId: string): Promise<void> {
  // What the web sends today compiles.
  await api.POST('/projects', { body: { name: 'Film' } })
  await api.GET('/projects/{id}', { params: { path: { id: projectId } } })
  await api.GET('/ai/models', { params: { query: { kind: 'video' } } })

  // @ts-expect-error a path the api does not have
  await api.GET('/project', {})
  // @ts-expect-error a route string as the web used to write it, with its `/api` prefix
  await api.POST('/api/projects', { body: { name: 'Film' } })
  // @ts-expect-error a method the path does not answer
  await api.DELETE('/projects', {})
  await api.POST('/projects', {
    // @ts-expect-error a body field the route does not take
    body: { name: 'Film', title: 'Film' },
  })
  // @ts-expect-error a body without the field the route requires
  await api.POST('/projects', { body: {} })
  // @ts-expect-error a body field of the wrong type
  await api.POST('/projects', { body: { name: 42 } })
  // @ts-expect-error a path parameter left out
  await api.GET('/projects/{id}')
  // @ts-expect-error a query value the route does not take
  await api.GET('/ai/models', { params: { query: { kind: 'audio' } } })
}

/** A query key's first element is a GET path of the contract. */
export const goodKey = ['/projects'] as const satisfies readonly [ApiGetPath]
// @ts-expect-error a query key naming a path the api does not have
export const badKey = ['/api/projects'] as const satisfies readonly [ApiGetPath]
