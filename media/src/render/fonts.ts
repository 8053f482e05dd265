import { randomUUID } from 'node:crypto'
import { copyFile, mkdir, rename } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { CaptionFont } from '@reelgraph/shared'
import { exists } from './file-exists.ts'

/**
 * The open-licensed fonts of captions and title cards (issue 24 item 2): Inter, Montserrat and
 * Merriweather (SIL Open Font License 1.1), as the TTF files the `@expo-google-fonts/*` npm
 * packages ship, regular and bold. libass reads them from one folder (`fontsdir`), never from
 * the system's fonts, so a render looks the same on every machine. Credited in NOTICE.
 */

const require = createRequire(import.meta.url)

/** Each caption font's package and its files (regular, bold), as the package lays them out. */
const FONT_FILES: Readonly<Record<CaptionFont, { pkg: string; files: readonly string[] }>> = {
  Inter: {
    pkg: '@expo-google-fonts/inter',
    files: ['400Regular/Inter_400Regular.ttf', '700Bold/Inter_700Bold.ttf'],
  },
  Montserrat: {
    pkg: '@expo-google-fonts/montserrat',
    files: ['400Regular/Montserrat_400Regular.ttf', '700Bold/Montserrat_700Bold.ttf'],
  },
  Merriweather: {
    pkg: '@expo-google-fonts/merriweather',
    files: ['400Regular/Merriweather_400Regular.ttf', '700Bold/Merriweather_700Bold.ttf'],
  },
}

/** The installed font packages' versions: part of every segment key that draws text. */
export function fontsVersion(): string {
  return Object.values(FONT_FILES)
    .map(({ pkg }) => {
      const json = require(`${pkg}/package.json`) as { version: string }
      return `${pkg}@${json.version}`
    })
    .join(',')
}

/**
 * The folder libass reads fonts from (`cacheDir/fonts`), filled with the caption fonts' TTF
 * files copied from their npm packages when missing (atomically: a copy, then a rename).
 * Nothing is downloaded.
 * @returns its absolute path.
 * @throws the file system's error when a package's file is missing.
 */
export async function captionFontsDir(cacheDir: string): Promise<string> {
  const dir = join(cacheDir, 'fonts')
  await mkdir(dir, { recursive: true })
  for (const { pkg, files } of Object.values(FONT_FILES)) {
    const root = dirname(require.resolve(`${pkg}/package.json`))
    for (const file of files) {
      const target = join(dir, file.split('/').at(-1)!)
      if (await exists(target)) continue
      const temp = `${target}.${randomUUID()}.tmp`
      await copyFile(join(root, file), temp)
      await rename(temp, target)
    }
  }
  return dir
}
