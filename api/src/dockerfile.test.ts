import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const ROOT = new URL('../../', import.meta.url)
const read = (path: string) => readFileSync(new URL(path, ROOT), 'utf8')

/** Workspaces whose code the image runs (web is built into web/dist; e2e and bench are not shipped). */
const NOT_SHIPPED = new Set(['web', 'e2e', 'bench'])

describe('the Dockerfile keeps up with the workspaces', () => {
  const workspaces = (JSON.parse(read('package.json')) as { workspaces: string[] }).workspaces
  const dockerfile = read('Dockerfile')

  it.each(workspaces)('copies %s/package.json before npm ci (npm needs every workspace)', (ws) => {
    expect(dockerfile).toContain(`COPY ${ws}/package.json ${ws}/`)
  })

  it.each(workspaces.filter((ws) => !NOT_SHIPPED.has(ws)))(
    'copies the %s sources into the runtime image',
    (ws) => {
      expect(dockerfile).toMatch(new RegExp(`^COPY ${ws} ${ws}$`, 'm'))
    },
  )
})
