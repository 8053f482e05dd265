import { readFileSync } from 'node:fs'
import { isAbsolute, resolve } from 'node:path'
import { SYNC_SETTING_NAMES } from '@reelgraph/sync-server'
import { describe, expect, it } from 'vitest'
import { loadEnv, SETTING_NAMES, settingLookalikes } from './env.ts'
import { renderDirs } from './features/video/render-scenes.ts'

const ROOT = new URL('../../', import.meta.url)
const read = (path: string) => readFileSync(new URL(path, ROOT), 'utf8')

/**
 * The `environment:` keys of each service of a compose file, commented-out ones included
 * (`# S3_BUCKET: ...` is an invitation to uncomment), with whether the service is built
 * from this repository and what it runs. A line reader for the file's own layout (two
 * spaces per level, `environment:` as a map), not a YAML parser.
 */
function composeServices(yaml: string) {
  const services = new Map<string, { ours: boolean; command: string; variables: string[] }>()
  let section = ''
  let current: { ours: boolean; command: string; variables: string[] } | undefined
  let inEnvironment = false
  for (const line of yaml.split('\n')) {
    const top = line.match(/^([a-z][\w-]*):/)
    if (top) section = top[1] ?? ''
    const service = section === 'services' && line.match(/^ {2}([a-z][\w-]*):\s*$/)
    if (service) {
      current = { ours: false, command: '', variables: [] }
      services.set(service[1] ?? '', current)
      inEnvironment = false
      continue
    }
    if (!current) continue
    const key = line.match(/^ {4}([a-z_]+):\s*(.*)$/)
    if (key) {
      inEnvironment = key[1] === 'environment'
      if (key[1] === 'build' && key[2] === '.') current.ours = true
      if (key[1] === 'command') current.command = key[2] ?? ''
      continue
    }
    const variable = inEnvironment && line.match(/^ {6}(?:# ?)?([A-Z][A-Z0-9_]*):(\s|$)/)
    if (variable) current.variables.push(variable[1] ?? '')
  }
  return services
}

/** Variables a Dockerfile sets (`ENV`, `ARG`) or reads (`process.env.X` in its commands). */
function dockerfileVariables(dockerfile: string): string[] {
  const instructions = dockerfile.replace(/\\\n/g, ' ').split('\n')
  const names = new Set<string>()
  for (const line of instructions) {
    const env = line.match(/^\s*(ENV|ARG)\s+(.*)$/)
    if (env) for (const m of (env[2] ?? '').matchAll(/([A-Z][A-Z0-9_]*)=/g)) names.add(m[1] ?? '')
    if (env?.[1] === 'ARG') names.add((env[2] ?? '').split(/[=\s]/)[0] ?? '')
    for (const m of line.matchAll(/process\.env\.([A-Z][A-Z0-9_]*)/g)) names.add(m[1] ?? '')
  }
  return [...names].sort()
}

/** Every `NAME=` assignment of an env file, commented-out ones included. */
function envFileVariables(text: string): string[] {
  return [...text.matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1] ?? '')
}

/** Read by the test helpers (db/src/testing.ts), not by a process: documented for CI. */
const TEST_ONLY = ['TEST_DATABASE_URL']

describe('settings named by the deployment files (issue 11 item 9)', () => {
  const compose = composeServices(read('docker-compose.yml'))

  it('reads the compose file: app and sync are built here, sync runs the sync server', () => {
    expect(compose.get('app')).toMatchObject({ ours: true, command: '' })
    expect(compose.get('sync')).toMatchObject({ ours: true })
    expect(compose.get('sync')?.command).toContain('sync-server/src/server.ts')
    expect(compose.get('app')?.variables).toEqual(
      expect.arrayContaining(['DATABASE_URL', 'BILLING_SANDBOX', 'S3_BUCKET']),
    )
    expect(compose.get('postgres')).toMatchObject({ ours: false })
  })

  it('every variable docker-compose.yml gives our services is one that service reads', () => {
    for (const [name, service] of compose) {
      if (!service.ours) continue
      const reads = service.command.includes('sync-server') ? SYNC_SETTING_NAMES : SETTING_NAMES
      const unknown = service.variables.filter((v) => !reads.includes(v))
      expect({ service: name, unknown }).toEqual({ service: name, unknown: [] })
    }
  })

  it('every variable the Dockerfile names is an api setting (its default command is the app)', () => {
    const names = dockerfileVariables(read('Dockerfile'))
    expect(names).toEqual(expect.arrayContaining(['NODE_ENV', 'PORT']))
    expect(names.filter((n) => !SETTING_NAMES.includes(n))).toEqual([])
  })

  it('.env.example names every setting of the api and the sync server, and nothing else', () => {
    const names = envFileVariables(read('.env.example'))
    const settings = [...new Set([...SETTING_NAMES, ...SYNC_SETTING_NAMES])]
    expect(names.filter((n) => !settings.includes(n) && !TEST_ONLY.includes(n))).toEqual([])
    expect(settings.filter((n) => !names.includes(n))).toEqual([])
    for (const name of TEST_ONLY) expect(read('db/src/testing.ts')).toContain(`process.env.${name}`)
  })

  it('the compose app is behind one proxy, with email and billing a production app needs', () => {
    const app = compose.get('app')?.variables ?? []
    expect(app).toEqual(expect.arrayContaining(['TRUST_PROXY', 'SMTP_URL', 'BILLING_SANDBOX']))
  })
})

describe('settingLookalikes', () => {
  it('takes the known names from the schema itself', () => {
    expect(SETTING_NAMES).toEqual(
      expect.arrayContaining(['NODE_ENV', 'BILLING_SANDBOX', 'MAIL_TO_FILES', 'STRIPE_PRICE_PRO']),
    )
    expect(SYNC_SETTING_NAMES).toEqual(expect.arrayContaining(['SYNC_PORT', 'DATABASE_URL']))
  })

  it('reports look-alikes of api settings, not names the sync server or the OpenAI SDK read', () => {
    const found = settingLookalikes(SYNC_SETTING_NAMES, {
      SANDBOX_BILLING: 'true',
      SYNC_PORT: '3001',
      OPENAI_ORG_ID: 'org-1',
      OPENAI_ORGANIZATION: 'org-1',
      PATH: '/usr/bin',
    })
    expect(found).toEqual([
      { name: 'OPENAI_ORGANIZATION', suggestion: 'OPENAI_API_KEY', reason: 'prefix' },
      { name: 'SANDBOX_BILLING', suggestion: 'BILLING_SANDBOX', reason: 'similar' },
    ])
  })

  it('adds look-alikes to the error of an environment that does not parse', () => {
    expect(() => loadEnv({ PORT: 'eighty', APP_ULR: 'https://reelgraph.example' })).toThrow(
      /PORT: .*\n {2}APP_ULR is set but is not a setting, so it changes nothing: did you mean APP_URL\?/s,
    )
  })
})

describe('path settings (issue 20 item 1)', () => {
  it('are made absolute against the folder the process started in, once, at boot', () => {
    const env = loadEnv({
      DATA_DIR: 'data-newcomer',
      WEB_DIST_DIR: './web/dist',
      FFMPEG_PATH: 'tools/ffmpeg',
    })
    expect(env.DATA_DIR).toBe(resolve(process.cwd(), 'data-newcomer'))
    expect(env.WEB_DIST_DIR).toBe(resolve(process.cwd(), 'web/dist'))
    expect(env.FFMPEG_PATH).toBe(resolve(process.cwd(), 'tools/ffmpeg'))
  })

  it('default to ./data and ./web/dist, absolute; an empty WEB_DIST_DIR serves none', () => {
    const env = loadEnv({})
    expect(env.DATA_DIR).toBe(resolve(process.cwd(), 'data'))
    expect(isAbsolute(env.WEB_DIST_DIR)).toBe(true)
    expect(env.FFMPEG_PATH).toBeUndefined()
    expect(loadEnv({ WEB_DIST_DIR: '' }).WEB_DIST_DIR).toBe('')
  })

  it('every folder derived from DATA_DIR is absolute (the render folders ffmpeg reads)', () => {
    const dirs = renderDirs(loadEnv({ DATA_DIR: 'data' }))
    expect(isAbsolute(dirs.work) && isAbsolute(dirs.cache)).toBe(true)
  })
})
