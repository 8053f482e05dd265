import {
  type CreateTemplateInput,
  jobAcceptedSchema,
  type JobAccepted,
  type MakeVideoInput,
  type ProjectFromTemplate,
  type ProjectFromTemplateInput,
  projectFromTemplateSchema,
  type TemplateList,
  templateListSchema,
  type TemplateSummary,
  templateSummarySchema,
} from '@reelgraph/shared'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, getQueryFn, parseAnswer } from '@/lib/api-client'
import { QUERY_KEYS } from '@/lib/query-keys'

/**
 * The template calls (issue 42 item 2): the gallery's list, saving a project as a template,
 * a new project from one, and its first video. TanStack hooks over the typed client; answers
 * read with shared's schemas; no toasts (callers toast).
 */

/** `GET /api/templates`: the key of the gallery's list. */
export const TEMPLATES_QUERY_KEY = ['/templates'] as const

/**
 * The templates the signed-in person may use (`GET /api/templates`): the builtin ones, then
 * theirs and their team's, newest first. Read when the gallery opens (`enabled`).
 * @throws {ApiError} / {NetworkError} in `error`.
 */
export function useTemplates(enabled = true) {
  return useQuery<TemplateList>({
    queryKey: TEMPLATES_QUERY_KEY,
    queryFn: getQueryFn({
      on401: 'throw',
      schema: templateListSchema,
      what: 'the templates',
      call: ({ signal }) => api.GET('/templates', { signal }),
    }),
    enabled,
  })
}

/**
 * Saves a project as a template (`POST /api/templates {projectId, name, description, marks}`
 * -> 201 TemplateSummary) and refreshes the gallery, where it shows under Yours.
 * @throws {ApiError} with the server's words (400 naming the field, 404 for a project the
 *   person cannot open).
 */
export function useSaveTemplate() {
  const queryClient = useQueryClient()
  return useMutation<TemplateSummary, Error, CreateTemplateInput>({
    mutationFn: async (input) =>
      parseAnswer(
        templateSummarySchema,
        (await api.POST('/templates', { body: input })).data,
        'the template',
      ),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: TEMPLATES_QUERY_KEY, exact: true })
    },
  })
}

/** What {@link useCreateFromTemplate} sends, and whether it then makes the video. */
export interface CreateFromTemplateVariables {
  input: ProjectFromTemplateInput
  /** "Create and make video": start the template's Make video on the new project. */
  makeVideo: boolean
}

/** What {@link useCreateFromTemplate} answers: the project, and the video's start. */
export interface CreatedFromTemplate {
  project: ProjectFromTemplate
  /** The Make video job, when one was asked for and started. */
  job: JobAccepted | null
  /** Why the video did not start, in the server's words (the project exists). */
  videoError: unknown
}

/**
 * A new project from a template (`POST /api/projects/from-template` -> 201 `{ id, name,
 * makeVideo }`), then, when asked and the template has a Script Generator, its video (`POST
 * /api/video/make` with the answer's `makeVideo`). Refreshes the projects list and, after a
 * video, the balance. A refused video does not undo the project: it is in `videoError`.
 * @throws {ApiError} when the project is refused (400 naming the value, 404 for a template the
 *   person cannot use).
 */
export function useCreateFromTemplate() {
  const queryClient = useQueryClient()
  return useMutation<CreatedFromTemplate, Error, CreateFromTemplateVariables>({
    mutationFn: async ({ input, makeVideo }) => {
      const project = parseAnswer(
        projectFromTemplateSchema,
        (await api.POST('/projects/from-template', { body: input })).data,
        'the new project',
      )
      if (!makeVideo || !project.makeVideo) return { project, job: null, videoError: null }
      try {
        return { project, job: await startMakeVideo(project.makeVideo), videoError: null }
      } catch (videoError) {
        return { project, job: null, videoError }
      } finally {
        await queryClient.invalidateQueries({ queryKey: QUERY_KEYS.credits, exact: true })
      }
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: QUERY_KEYS.projects, exact: true })
    },
  })
}

/** `POST /api/video/make` with a template's call -> 202 the job. */
async function startMakeVideo(input: MakeVideoInput): Promise<JobAccepted> {
  return parseAnswer(
    jobAcceptedSchema,
    (await api.POST('/video/make', { body: input })).data,
    'the video',
  )
}
