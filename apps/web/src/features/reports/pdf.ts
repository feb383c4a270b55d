/** PDF of a report (spec 3 §9): A4, quality 2, content 800 px wide, one section per page. */
export const PDF_SCALE = 2;
export const PDF_CONTENT_WIDTH = 800;

const A4 = { w: 210, h: 297 };
const MARGIN = 10;

const settle = () => new Promise<void>((r) => setTimeout(r, 300));
const frame = () => new Promise<void>((r) => requestAnimationFrame(() => r()));

/**
 * Passes the screen over every part of the sections once: a chart drawn only when it comes near
 * the screen (WhenInView) would otherwise be pictured as its empty place (the third chart of
 * page 1, the whole of page 2, when the user had not scrolled down). Without
 * IntersectionObserver everything is drawn already.
 */
async function revealAll(sections: HTMLElement[]): Promise<void> {
  if (typeof IntersectionObserver === 'undefined') return;
  const { scrollX, scrollY } = window;
  const step = Math.max(200, window.innerHeight - 100);
  for (const el of sections) {
    const top = el.getBoundingClientRect().top + window.scrollY;
    for (let y = top; y < top + el.offsetHeight; y += step) {
      window.scrollTo(scrollX, y);
      await frame();
      await frame();
    }
  }
  window.scrollTo(scrollX, scrollY);
}

/**
 * Draws each section at 800 px wide (the charts redraw at that width), pictures it with
 * html2canvas at scale 2, and puts each picture on its own A4 page, fitted inside the margins.
 * jsPDF and html2canvas load only when a PDF is asked for.
 */
export async function exportPdf(sections: HTMLElement[], fileName: string): Promise<void> {
  const [{ jsPDF }, { default: html2canvas }] = await Promise.all([
    import('jspdf'),
    import('html2canvas'),
  ]);
  const pdf = new jsPDF({ orientation: 'portrait', unit: 'mm', format: 'a4' });
  const saved = sections.map((el) => el.style.cssText);
  try {
    for (const el of sections) {
      el.style.width = `${PDF_CONTENT_WIDTH}px`;
      el.style.maxWidth = `${PDF_CONTENT_WIDTH}px`;
      el.style.background = '#ffffff';
    }
    await revealAll(sections);
    await settle();
    for (const [i, el] of sections.entries()) {
      const canvas = await html2canvas(el, {
        scale: PDF_SCALE,
        width: PDF_CONTENT_WIDTH,
        windowWidth: PDF_CONTENT_WIDTH,
        backgroundColor: '#ffffff',
        logging: false,
        useCORS: true,
      });
      let w = A4.w - 2 * MARGIN;
      let h = (canvas.height * w) / canvas.width;
      if (h > A4.h - 2 * MARGIN) {
        h = A4.h - 2 * MARGIN;
        w = (canvas.width * h) / canvas.height;
      }
      if (i > 0) pdf.addPage('a4', 'portrait');
      pdf.addImage(canvas.toDataURL('image/jpeg', 0.92), 'JPEG', (A4.w - w) / 2, MARGIN, w, h);
    }
  } finally {
    sections.forEach((el, i) => {
      el.style.cssText = saved[i] ?? '';
    });
  }
  pdf.save(fileName);
}

/** Saves a blob under a file name (an anchor with `download`). */
export const saveBlob = (blob: Blob, fileName: string): void => {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
};
