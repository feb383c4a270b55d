import { createRequire } from 'node:module';
import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

// pdf.js's own metric files for the 14 standard fonts (shipped in the package, read from disk).
const standardFontDataUrl = `${path.join(
  path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')),
  'standard_fonts',
)}/`;

export type PdfPage = { widthMm: number; heightMm: number; png: Buffer };

const MM_PER_PT = 25.4 / 72;

/**
 * Renders every page of a PDF to a PNG (pdf.js on @napi-rs/canvas, no browser and no network),
 * so a journey can look at an exported report as pictures and check its page size.
 */
export async function pdfPages(bytes: Uint8Array, scale = 1.5): Promise<PdfPage[]> {
  const doc = await getDocument({
    data: bytes,
    isEvalSupported: false,
    useSystemFonts: false,
    standardFontDataUrl,
  }).promise;
  const pages: PdfPage[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const page = await doc.getPage(i);
    const [, , w, h] = page.view as [number, number, number, number];
    const viewport = page.getViewport({ scale });
    const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
    await page.render({
      canvas: canvas as unknown as HTMLCanvasElement,
      viewport,
    }).promise;
    pages.push({
      widthMm: Math.round(w * MM_PER_PT),
      heightMm: Math.round(h * MM_PER_PT),
      png: canvas.toBuffer('image/png'),
    });
  }
  await doc.destroy();
  return pages;
}
