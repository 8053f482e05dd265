import { createProjectFromTemplate, listTemplates } from '../../templates/template-service.ts'
import { requireTokenScope } from '../../tokens/token-service.ts'
import { submitMakeVideo } from '../../video/video-service.ts'
import { jobAnswer } from '../job-answer.ts'
import { absoluteUrl, defineTool } from '../mcp-tool.ts'

/**
 * The template tools (issue 42 item 2; issue 42: "batches are driven by tokens and MCP too"):
 * the same services as `GET /api/templates` and `POST /api/projects/from-template`.
 */

export const listTemplatesTool = defineTool({
  name: 'list_templates',
  title: 'List templates',
  description:
    'The templates you can use: the builtin ones first (explainer, vertical short, product clip, story), then yours and your team’s. Each has its id, name, description, its variables (name, kind text or image, label, an example value) and its settings (format, targetSeconds, scene count, voice, captions, animate model), and a preview picture URL. Pass a template’s id and a value per variable to create_project_from_template for one video, or to create_batch with many rows for many.',
  readOnly: true,
  async run(_input, { deps, actor, origin }) {
    const { templates } = await listTemplates(deps.db, { userId: actor.user.id })
    return {
      templates: templates.map((t) => ({
        ...t,
        previewUrl: t.previewUrl === null ? null : absoluteUrl(origin, t.previewUrl),
      })),
    }
  },
})

export const createProjectFromTemplateTool = defineTool({
  name: 'create_project_from_template',
  title: 'Create a project from a template',
  description:
    'Makes a new project of yours from a template (list_templates) with a value for each of its variables, written into its nodes ({{topic}} becomes your topic). Answers the project’s id and name and `makeVideo`: the body of POST /api/video/make that makes its video with the template’s settings (null when its graph has no Script Generator). With `makeVideo: true` it also starts that video (the generate scope; charged as Make video) and answers its `job`: follow it with get_job, then export_video. Otherwise send `makeVideo` to POST /api/video/make with your token later. A refused value is a tool error naming the variable, and nothing is made.',
  readOnly: false,
  async run({ templateId, name, values, makeVideo }, { deps, actor, origin }) {
    // Checked first, so a token that may not generate makes no project either.
    if (makeVideo) requireTokenScope(actor, 'generate')
    const created = await createProjectFromTemplate(deps, {
      userId: actor.user.id,
      templateId,
      name,
      values: values ?? {},
    })
    const answer = { projectId: created.id, name: created.name, makeVideo: created.makeVideo }
    if (!makeVideo || !created.makeVideo) return answer
    const job = await submitMakeVideo(deps, { userId: actor.user.id, ...created.makeVideo })
    return { ...answer, job: jobAnswer(job, origin) }
  },
})
