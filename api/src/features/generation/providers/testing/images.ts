import sharp from 'sharp'

/** A solid PNG of the given size, as a provider might return it. */
export async function solidPng(width: number, height: number): Promise<Uint8Array> {
  const png = await sharp({
    create: { width, height, channels: 3, background: { r: 40, g: 90, b: 160 } },
  })
    .png()
    .toBuffer()
  return new Uint8Array(png)
}

/** Width, height and format of image bytes. */
export async function describeImage(data: Uint8Array) {
  const meta = await sharp(data).metadata()
  return { width: meta.width, height: meta.height, format: meta.format }
}
