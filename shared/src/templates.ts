import { z } from 'zod'
import { sceneCountSchema } from './ai.ts'
import { captionsInput } from './caption-style.ts'
import { MODEL_ID_PATTERN } from './catalog.ts'
import { PROJECT_NAME_MAX_LENGTH } from './graph.ts'
import { databaseIdSchema, databaseIdTextSchema, projectIdSchema } from './ids.ts'
import { makeVideoInput } from './make-video.ts'
import { projectDescriptionSchema, projectNameSchema } from './projects.ts'
import { targetSecondsSchema } from './target-length.ts'
import { VIDEO_PRESET_NAMES } from './video.ts'

/**
 * Templates (issue 42 item 2): a project's graph saved with some node fields marked as
 * variables (`{{topic}}`, `{{product_name}}`, `{{image}}` for a picture), a name, a
 * description, a preview frame and its settings; a new project is made from one with values
 * for its variables (`POST /api/projects/from-template`), and a batch (`batches.ts`) makes one
 * project per row of values. What the api, the web and the batch runner agree on.
 */

/** A variable's name: a lower-case letter, then letters, digits or `_`; at most 32. */
export const TEMPLATE_VARIABLE_NAME = /^[a-z][a-z0-9_]{0,31}$/
/**
 * A variable as it stands in a node's text field: `{{name}}` (spaces inside the braces are
 * allowed). Global: use with `matchAll` / `replace`.
 */
export const TEMPLATE_PLACEHOLDER = /\{\{\s*([a-z][a-z0-9_]{0,31})\s*\}\}/g

/**
 * What a variable's value is: `text` (a topic, a product name) or `image` (a picture: a
 * variable named `image` or ending in `_image`). See {@link templateVariableKind}.
 */
export const TEMPLATE_VARIABLE_KINDS = ['text', 'image'] as const
export type TemplateVariableKind = (typeof TEMPLATE_VARIABLE_KINDS)[number]

/** The kind of variable `name`: `image` for `image` and `*_image`, else `text`. */
export function templateVariableKind(name: string): TemplateVariableKind {
  return name === 'image' || name.endsWith('_image') ? 'image' : 'text'
}

/** The most characters a text value may have (a topic's limit, `TOPIC_MAX_LENGTH`, is wider). */
export const TEMPLATE_TEXT_VALUE_MAX_LENGTH = 500
/** The most variables a template may have. */
export const TEMPLATE_MAX_VARIABLES = 20
/**
 * The largest picture a `data:` value of an image variable may carry, in bytes (decoded):
 * 8 MiB, a phone photo.
 */
export const TEMPLATE_IMAGE_MAX_BYTES = 8 * 1024 * 1024

/** One variable of a template, as the gallery and a batch's table show it. */
export const templateVariableSchema = z
  .object({
    /** The name inside the braces: `topic`. */
    name: z.string().regex(TEMPLATE_VARIABLE_NAME),
    kind: z.enum(TEMPLATE_VARIABLE_KINDS),
    /** How a form labels it: "Topic", "Product name". */
    label: z.string(),
    /** A value that shows what is meant (a builtin template's sample); '' for none. */
    example: z.string(),
  })
  .meta({ id: 'TemplateVariable' })
export type TemplateVariable = z.infer<typeof templateVariableSchema>

/**
 * The settings a template keeps for the videos made from it (issue 42 item 2): the format,
 * the length, the scene count, the voice, the caption look, and the model that animates each
 * scene (absent: stills).
 */
export const templateSettingsSchema = z
  .object({
    preset: z.enum(VIDEO_PRESET_NAMES, {
      error: `The format must be one of ${VIDEO_PRESET_NAMES.join(', ')}.`,
    }),
    /** Seconds the video should last (`target-length.ts`). */
    targetSeconds: targetSecondsSchema,
    sceneCount: sceneCountSchema,
    /** The voice id; '' for the speech provider's default. */
    voice: z.string().max(100),
    captions: captionsInput.optional(),
    /** A catalog video model that animates each scene (`fal:...`, `builtin:...`); absent: stills. */
    animateModelId: z
      .string()
      .regex(MODEL_ID_PATTERN, 'Pick a video model from the list.')
      .optional(),
    /**
     * A picture every scene shows instead of a generated one (the product clip: image to
     * video with `animateModelId`): `{{image}}` (or another image variable), filled with the
     * value's asset URL in the new project.
     */
    sceneImage: z.string().max(200).optional(),
    /**
     * A recurring character every scene's picture shows (the story): its description, which
     * may hold variables (`{{character}}`), added to each scene's visual instructions.
     */
    character: z.string().max(600).optional(),
  })
  .meta({ id: 'TemplateSettings' })
export type TemplateSettings = z.infer<typeof templateSettingsSchema>

/** Whose a template is, from the asking person's side. */
export const TEMPLATE_SOURCES = ['builtin', 'yours', 'team'] as const
export type TemplateSource = (typeof TEMPLATE_SOURCES)[number]

/** A template as `GET /api/templates` lists it. */
export const templateSummarySchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    description: z.string(),
    source: z.enum(TEMPLATE_SOURCES),
    variables: z.array(templateVariableSchema),
    settings: templateSettingsSchema,
    /** The preview frame's URL (`/api/templates/:id/preview`), or null when it has none. */
    previewUrl: z.string().nullable(),
    /** How many nodes its graph has. */
    nodeCount: z.number().int(),
    createdAt: z.string(),
  })
  .meta({ id: 'TemplateSummary' })
export type TemplateSummary = z.infer<typeof templateSummarySchema>

/** `GET /api/templates`: the builtin ones first, then yours and your team's, newest first. */
export const templateListSchema = z
  .object({ templates: z.array(templateSummarySchema) })
  .meta({ id: 'TemplateList' })
export type TemplateList = z.infer<typeof templateListSchema>

/** A template id in a JSON body. */
export const templateIdSchema = databaseIdSchema(
  'templateId must be the id of a template you can use.',
)
/** A template id in a path or a query string. */
export const templateIdTextSchema = databaseIdTextSchema(
  'templateId must be the id of a template you can use.',
)

/**
 * One node field to turn into a variable when saving (`{{name}}` replaces the field's value
 * in the template's graph, never in the project).
 */
export const templateFieldMarkSchema = z.object({
  nodeId: z.string().min(1).max(64),
  field: z.string().min(1).max(64),
  name: z.string().regex(TEMPLATE_VARIABLE_NAME, {
    error: 'A variable name is a lower-case letter, then letters, digits or _ (at most 32).',
  }),
})
export type TemplateFieldMark = z.infer<typeof templateFieldMarkSchema>

/**
 * `POST /api/templates`: save project `projectId` (its members may) as a template. The
 * variables are the `{{name}}` placeholders its node fields hold, plus `marks`; its settings
 * are read from its Script Generator and Video node.
 */
export const createTemplateInput = z
  .object({
    projectId: projectIdSchema,
    name: projectNameSchema,
    description: projectDescriptionSchema.default(''),
    marks: z.array(templateFieldMarkSchema).max(TEMPLATE_MAX_VARIABLES).default([]),
  })
  .meta({ id: 'CreateTemplateInput' })
export type CreateTemplateInput = z.infer<typeof createTemplateInput>

/**
 * Values for a template's variables, by name: text, or for an image variable an asset URL
 * (`/api/assets/<id>`, of a project the caller is a member of) or a `data:image/...;base64,`
 * URL of at most {@link TEMPLATE_IMAGE_MAX_BYTES}.
 */
export const templateValuesSchema = z.record(
  z
    .string()
    .regex(TEMPLATE_VARIABLE_NAME, { error: 'A variable name is like topic or product_name.' }),
  z.string({ error: 'Each value is text.' }),
)
export type TemplateValues = z.infer<typeof templateValuesSchema>

/** `POST /api/projects/from-template`: a new project from a template and values. */
export const projectFromTemplateInput = z
  .object({
    templateId: templateIdSchema,
    /** The new project's name; absent: named from the values (see {@link templateProjectName}). */
    name: projectNameSchema.optional(),
    values: templateValuesSchema.default({}),
  })
  .meta({ id: 'ProjectFromTemplateInput' })
export type ProjectFromTemplateInput = z.infer<typeof projectFromTemplateInput>

/**
 * `POST /api/projects/from-template` answer (201): the new project, and the call that makes
 * its video with the template's settings (`POST /api/video/make`), null when its graph has no
 * Script Generator.
 */
export const projectFromTemplateSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    makeVideo: makeVideoInput.nullable(),
  })
  .meta({ id: 'ProjectFromTemplate' })
export type ProjectFromTemplate = z.infer<typeof projectFromTemplateSchema>

/**
 * The largest JSON body `POST /api/projects/from-template` takes, in bytes: one picture of
 * {@link TEMPLATE_IMAGE_MAX_BYTES} as base64 (4 characters per 3 bytes), and 1 MiB for the
 * rest of the values.
 */
export const TEMPLATE_PROJECT_BODY_MAX_BYTES =
  Math.ceil(TEMPLATE_IMAGE_MAX_BYTES / 3) * 4 + 1024 * 1024

/** What a value is refused for, in words; the variable's name is put in front by the caller. */
export const TEMPLATE_MESSAGES = {
  missing: (name: string) => `Give a value for {{${name}}}.`,
  empty: (name: string) => `{{${name}}} is empty.`,
  tooLong: (name: string) =>
    `{{${name}}} is longer than ${TEMPLATE_TEXT_VALUE_MAX_LENGTH} characters.`,
  notAnImage: (name: string) =>
    `{{${name}}} must be a picture: a file of yours (/api/assets/...) or an uploaded PNG, JPEG or WebP.`,
  unknown: (name: string) => `This template has no variable {{${name}}}.`,
  imageTooLarge: (name: string) =>
    `{{${name}}} is a picture larger than ${TEMPLATE_IMAGE_MAX_BYTES / 1024 / 1024} MiB. Choose a smaller one.`,
  imageUnreadable: (name: string) =>
    `{{${name}}} is not a PNG, JPEG or WebP picture that can be read. Choose another file.`,
} as const

/** One refused value: the variable and why. */
export interface TemplateValueProblem {
  variable: string
  message: string
}

const IMAGE_VALUE =
  /^(\/api\/assets\/[a-z2-7]{32}|data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/=]+)$/

/**
 * Checks `values` against `variables` (issue 42 items 2, 3): every variable has a value, text
 * at most {@link TEMPLATE_TEXT_VALUE_MAX_LENGTH} characters and not blank, an image an asset
 * URL or a `data:` image URL (its bytes are checked by the server); a name the template does
 * not have is refused too. Answers the problems, in the variables' order; none: `[]`.
 */
export function templateValueProblems(
  variables: readonly TemplateVariable[],
  values: Readonly<Record<string, string>>,
): TemplateValueProblem[] {
  const problems: TemplateValueProblem[] = []
  const known = new Set(variables.map((v) => v.name))
  for (const variable of variables) {
    const value = values[variable.name]
    const name = variable.name
    if (value === undefined)
      problems.push({ variable: name, message: TEMPLATE_MESSAGES.missing(name) })
    else if (value.trim() === '')
      problems.push({ variable: name, message: TEMPLATE_MESSAGES.empty(name) })
    else if (variable.kind === 'image') {
      if (!IMAGE_VALUE.test(value))
        problems.push({ variable: name, message: TEMPLATE_MESSAGES.notAnImage(name) })
    } else if (value.length > TEMPLATE_TEXT_VALUE_MAX_LENGTH) {
      problems.push({ variable: name, message: TEMPLATE_MESSAGES.tooLong(name) })
    }
  }
  for (const name of Object.keys(values)) {
    if (!known.has(name))
      problems.push({ variable: name, message: TEMPLATE_MESSAGES.unknown(name) })
  }
  return problems
}

/** The variable names `text` holds, in order of first appearance. */
export function placeholdersIn(text: string): string[] {
  const names: string[] = []
  for (const match of text.matchAll(TEMPLATE_PLACEHOLDER)) {
    if (!names.includes(match[1]!)) names.push(match[1]!)
  }
  return names
}

/** `text` with each `{{name}}` replaced by `values[name]` (a name without a value is kept). */
export function fillPlaceholders(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(TEMPLATE_PLACEHOLDER, (whole, name: string) => values[name] ?? whole)
}

/**
 * A project's name from a template and its values: the template's name and the first text
 * value ("Vertical short: How honeybees make honey"), cut to fit a project name.
 */
export function templateProjectName(
  templateName: string,
  variables: readonly TemplateVariable[],
  values: Readonly<Record<string, string>>,
): string {
  const first = variables.find((v) => v.kind === 'text' && values[v.name]?.trim())
  const name = first ? `${templateName}: ${values[first.name]!.trim()}` : templateName
  return name.length > PROJECT_NAME_MAX_LENGTH
    ? `${name.slice(0, PROJECT_NAME_MAX_LENGTH - 1)}…`
    : name
}
