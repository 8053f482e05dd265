import {
  GRAPH_FILE_MESSAGES,
  type GraphFileInput,
  graphFileName,
  type ImportedProject,
  importedProjectSchema,
} from '@reelgraph/shared'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { answeredFile, api, parseAnswer } from '@/lib/api-client'
import { QUERY_KEYS } from '@/lib/query-keys'
import { saveFile } from '@/lib/save-file'

/**
 * The graph file of a project (issue 42 item 2, decision 031): "Export graph" downloads
 * `GET /api/projects/:id/export.json`; "Import graph…" sends a chosen file to `POST
 * /api/projects/import`, which judges it and answers the new project, or refuses it in words.
 */

/**
 * Downloads a project's graph file, named as the server says (`<project name>.reelgraph.json`).
 * @throws {ApiError} in the server's words (404 for a project the user cannot open);
 *   {NetworkError} offline.
 */
export async function exportGraphFile(project: { id: number; name: string }): Promise<void> {
  const file = answeredFile(
    await api.GET('/projects/{id}/export.json', {
      params: { path: { id: String(project.id) } },
      parseAs: 'blob',
    }),
    graphFileName(project.name),
  )
  saveFile(file.blob, file.filename)
}

/**
 * A chosen file's JSON. Only its syntax is checked here; the server judges the rest.
 * @throws {Error} with the graph file's own words when it is not JSON.
 */
export async function readGraphFile(file: Blob): Promise<unknown> {
  const text = await file.text()
  try {
    return JSON.parse(text) as unknown
  } catch {
    throw new Error(GRAPH_FILE_MESSAGES.notJson)
  }
}

/**
 * Imports a graph file as a new project (`POST /api/projects/import` -> 201 `{ id, name,
 * warnings }`) and refreshes the projects list. Does not toast: the caller does.
 * @throws {ApiError} with the server's words when the file is refused (400, 413);
 *   {Error} for a file that is not JSON.
 */
export function useImportGraph() {
  const queryClient = useQueryClient()
  return useMutation<ImportedProject, Error, File>({
    mutationFn: async (file) => {
      // Typed as a file so the contract checks the call; the server reads every field.
      const body = (await readGraphFile(file)) as GraphFileInput
      const { data } = await api.POST('/projects/import', { body })
      return parseAnswer(importedProjectSchema, data, 'the import')
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: QUERY_KEYS.projects, exact: true })
    },
  })
}
