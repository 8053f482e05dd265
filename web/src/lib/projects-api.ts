import {
  type CreatedProject,
  type CreateProjectInput,
  createdProjectSchema,
  type Project,
  projectSchema,
  type ProjectSummary,
  renamedProjectSchema,
} from '@reelgraph/shared'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { z } from 'zod'
import { api, getQueryFn, parseAnswer } from './api-client'
import { clearDeviceCopy } from './device-copies'
import { QUERY_KEYS } from './query-keys'

/** `{ name, updatedAt }`: the answer of a rename (spec §7 PATCH /api/projects/:id). */
export type RenamedProject = z.infer<typeof renamedProjectSchema>

/** What {@link useRenameProject} sends. */
export interface RenameProjectVariables {
  /** The project's id. */
  id: number
  /** The new name; the server trims it and checks it with `projectNameSchema`. */
  name: string
}

/** What {@link useDeleteProject} sends. */
export interface DeleteProjectVariables {
  /** The project's id. */
  id: number
}

/**
 * The query key of one project: `['/projects', id]`. Its first element is the list's path
 * (so invalidating {@link QUERY_KEYS.projects} reaches every project too); the query function
 * calls `GET /api/projects/{id}`.
 */
export function projectQueryKey<Id extends number | undefined>(
  id: Id,
): readonly [(typeof QUERY_KEYS.projects)[0], Id] {
  return [QUERY_KEYS.projects[0], id] as const
}

/**
 * Checks the answer of `POST /api/projects`: it must carry a numeric id (spec §5 Projects),
 * else the new project could not be opened.
 * @throws {Error} with a message a caller can toast when the id is missing or not a number.
 */
export function parseCreatedProject(answer: unknown): CreatedProject {
  const parsed = createdProjectSchema.safeParse(answer)
  if (!parsed.success) {
    throw new Error('The server did not return a valid project id. Please try again.')
  }
  return parsed.data
}

/**
 * The list after a rename: the project gets its new name and `updatedAt` and moves to the
 * front (the list is most recently updated first). Returns `list` itself when the project
 * is not in it; `undefined` stays `undefined` (nothing cached yet).
 */
export function renameInList(
  list: readonly ProjectSummary[] | undefined,
  id: number,
  renamed: RenamedProject,
): ProjectSummary[] | undefined {
  if (!list) return undefined
  const current = list.find((p) => p.id === id)
  if (!current) return [...list]
  return [{ ...current, ...renamed }, ...list.filter((p) => p.id !== id)]
}

/** The list without the project `id`; `undefined` stays `undefined`. */
export function removeFromList(
  list: readonly ProjectSummary[] | undefined,
  id: number,
): ProjectSummary[] | undefined {
  return list?.filter((p) => p.id !== id)
}

/**
 * The signed-in user's projects, most recently updated first (`GET /api/projects`).
 * A failure is an `ApiError`/`NetworkError` in `error`; callers decide what to show.
 * @see spec §7, §5 Projects
 */
export function useProjects() {
  return useQuery<ProjectSummary[]>({
    queryKey: QUERY_KEYS.projects,
    // Typed by the contract, not parsed: as before, one odd card must not hide the list.
    queryFn: async ({ signal }) => (await api.GET('/projects', { signal })).data ?? [],
  })
}

/**
 * One project with its graph (`GET /api/projects/:id`); disabled until `id` is a number.
 * Someone else's project, or a deleted one, fails with an `ApiError` of status 404.
 * @see spec §7
 */
export function useProject(id: number | undefined) {
  return useQuery<Project>({
    queryKey: projectQueryKey(id),
    queryFn: getQueryFn({
      on401: 'throw',
      schema: projectSchema,
      what: 'the project',
      call: ({ signal }) =>
        api.GET('/projects/{id}', { params: { path: { id: String(id) } }, signal }),
    }),
    enabled: typeof id === 'number' && Number.isFinite(id),
  })
}

/**
 * Creates a project (`POST /api/projects` -> 201 `{ id, name }`) and invalidates the list.
 * The answer is checked for a numeric id ({@link parseCreatedProject}); without one the
 * mutation fails with an `Error`. Does not toast: the caller does.
 * @see spec §7, §5 Projects
 */
export function useCreateProject() {
  const queryClient = useQueryClient()
  return useMutation<CreatedProject, Error, CreateProjectInput>({
    mutationFn: async (input) =>
      parseCreatedProject((await api.POST('/projects', { body: input })).data),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: QUERY_KEYS.projects, exact: true })
    },
  })
}

/**
 * Renames a project (`PATCH /api/projects/:id` with `{ name }` -> `{ name, updatedAt }`)
 * and writes the answer into the list cache (moving the project to the front) and into the
 * project's own cache. Does not toast: the caller does.
 * @see spec §7, §5 Projects
 */
export function useRenameProject() {
  const queryClient = useQueryClient()
  return useMutation<RenamedProject, Error, RenameProjectVariables>({
    mutationFn: async ({ id, name }) => {
      const { data } = await api.PATCH('/projects/{id}', {
        params: { path: { id: String(id) } },
        body: { name },
      })
      return parseAnswer(renamedProjectSchema, data, 'the rename')
    },
    onSuccess: (renamed, { id }) => {
      queryClient.setQueryData<ProjectSummary[]>(QUERY_KEYS.projects, (list) =>
        renameInList(list, id, renamed),
      )
      queryClient.setQueryData<Project>(projectQueryKey(id), (project) =>
        project ? { ...project, ...renamed } : project,
      )
    },
  })
}

/**
 * Deletes a project (`DELETE /api/projects/:id` -> `{ ok: true }`), removes it from the
 * list cache and drops its own query, then clears its copy on this device (IndexedDB,
 * `clearDeviceCopy`). Does not toast: the caller does.
 * @see spec §7, issue 3 ("deleting a project clears its device copy")
 */
export function useDeleteProject() {
  const queryClient = useQueryClient()
  return useMutation<void, Error, DeleteProjectVariables>({
    mutationFn: async ({ id }) => {
      await api.DELETE('/projects/{id}', { params: { path: { id: String(id) } } })
    },
    onSuccess: async (_data, { id }) => {
      queryClient.setQueryData<ProjectSummary[]>(QUERY_KEYS.projects, (list) =>
        removeFromList(list, id),
      )
      queryClient.removeQueries({ queryKey: projectQueryKey(id), exact: true })
      // Gone on the server already: a leftover device copy is only wasted space, never a failure.
      await clearDeviceCopy(id).catch((error: unknown) => {
        console.error('Could not clear the device copy of project', id, error)
      })
    },
  })
}
