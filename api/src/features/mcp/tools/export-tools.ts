import { videoTakesOf } from '@reelgraph/shared'
import { AppError } from '../../../lib/app-error.ts'
import { getProject } from '../../projects/project-service.ts'
import { renderAnswer } from '../job-answer.ts'
import { defineTool } from '../mcp-tool.ts'

/** `export_video` (issue 41 item 2): a Video node's newest render, as files to download. */

export const exportVideoTool = defineTool({
  name: 'export_video',
  title: 'Get a video’s files',
  description:
    'The newest render of a Video node (default: the project’s Video node rendered last): its MP4, SRT and VTT subtitles as absolute URLs to download with your Authorization header, its length in ms and format. Render first with make_video or run_node on the Video node.',
  readOnly: true,
  async run({ projectId, nodeId }, { deps, actor, origin }) {
    const project = await getProject(deps.db, { userId: actor.user.id, projectId })
    const videos = project.nodes.filter(
      (n) => n.type === 'video' && (nodeId === undefined || n.id === nodeId),
    )
    if (nodeId !== undefined && videos.length === 0) {
      throw new AppError('NOT_FOUND', `This project has no Video node "${nodeId}".`)
    }
    const rendered = videos
      .map((node) => ({ node, take: videoTakesOf(node.data)[0] }))
      .filter((v) => v.take !== undefined)
      .sort((a, b) => (a.take!.renderedAt < b.take!.renderedAt ? 1 : -1))[0]
    if (!rendered) {
      throw new AppError(
        'NOT_FOUND',
        'No video is rendered here yet: run make_video, or run_node on a Video node, and wait for its job.',
      )
    }
    return { nodeId: rendered.node.id, ...renderAnswer(rendered.take!, origin) }
  },
})
