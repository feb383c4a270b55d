// Renders docs/manual/manual.html to apps/api/assets/manual.pdf (the Japanese product manual
// that GET /api/manual-page/download serves and the /manual-document screen shows).
//
// Run by hand whenever the manual changes:   node scripts/build-manual.mjs
// It needs Debian's Chromium and Japanese fonts on the machine that builds it:
//   apt-get install -y chromium fonts-noto-cjk        (never `npx playwright install`)
// The generated PDF is committed, so a fresh machine serves it without Chromium; nothing in
// the build, the tests or CI runs this script.
//
// How it works: Chromium prints the page twice. The first pass only finds on which page each
// chapter and section starts (read from the PDF's named destinations, which Chromium writes
// for every in-document link target, i.e. every table-of-contents entry); the second pass
// prints with those page numbers written into the table of contents.
//
// Page numbers: CSS @page margin boxes in manual.html draw the running header and the page
// number, and leave the cover without one. Chromium's displayHeaderFooter templates would also
// number the cover, so they are used only as a fallback on a Chromium older than 131, which
// does not draw margin boxes.
/* global window, document -- used only inside page.evaluate callbacks, which run in Chromium */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const source = path.join(root, 'docs/manual/manual.html');
const target = path.join(root, 'apps/api/assets/manual.pdf');
const executablePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const MAX_BYTES = 3 * 1024 * 1024;

class BuildError extends Error {}

try {
  await build();
} catch (e) {
  if (!(e instanceof BuildError)) throw e;
  console.error(`build-manual: ${e.message}`);
  process.exitCode = 1;
}

async function build() {
  const { chromium } = await import('playwright-core').catch(() => import('@playwright/test'));

  if (!fs.existsSync(executablePath)) {
    fail(`Chromium not found at ${executablePath}: apt-get install -y chromium fonts-noto-cjk`);
  }

  const browser = await chromium.launch({
    executablePath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });

  try {
    const major = Number.parseInt(browser.version(), 10);
    const page = await browser.newPage();
    const problems = [];
    page.on('pageerror', (e) => problems.push(`script error: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
    });
    // The manual must be self-contained: anything but the file itself (and data: URLs) is refused.
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith('file:') || url.startsWith('data:')) return route.continue();
      problems.push(`external resource refused: ${url}`);
      return route.abort();
    });

    await page.goto(pathToFileURL(source).href, { waitUntil: 'load' });
    await page.waitForFunction(() => window.__manualReady === true, null, { timeout: 10_000 });
    await page.evaluate(() => document.fonts.ready);
    await page.emulateMedia({ media: 'print' });
    if (problems.length) fail(problems.join('\n'));
    await checkJapaneseFont(page);

    const ids = await page.$$eval('.toc-page[data-target]', (cells) =>
      cells.map((c) => c.getAttribute('data-target')),
    );

    const pdfOptions = {
      format: 'A4',
      printBackground: true,
      preferCSSPageSize: true,
      outline: true,
      tagged: true,
      ...(major >= 131
        ? { displayHeaderFooter: false }
        : {
            displayHeaderFooter: true,
            headerTemplate: '<span></span>',
            footerTemplate:
              '<div style="width:100%;text-align:center;font-size:8px;color:#4b5563;font-family:\'Noto Sans CJK JP\',sans-serif"><span class="pageNumber"></span> / <span class="totalPages"></span></div>',
          }),
    };

    // Pass 1 with a two-digit placeholder so the numbers of pass 2 take the same room; repeat
    // until the table of contents agrees with the PDF it is printed in (normally one round).
    await fillToc(page, Object.fromEntries(ids.map((id) => [id, '00'])));
    let pdf = await page.pdf(pdfOptions);
    let pages = destinationPages(pdf);
    for (let round = 0; ; round++) {
      const missing = ids.filter((id) => !(id in pages));
      if (missing.length) fail(`no page found for: ${missing.join(', ')}`);
      await fillToc(page, pages);
      pdf = await page.pdf(pdfOptions);
      const again = destinationPages(pdf);
      if (ids.every((id) => again[id] === pages[id])) break;
      if (round === 3) fail('the table of contents does not settle on stable page numbers');
      pages = again;
    }

    if (pdf.length > MAX_BYTES) fail(`PDF is ${kb(pdf.length)}, over the ${kb(MAX_BYTES)} budget`);

    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, pdf);
    console.log(
      `${path.relative(root, target)}: ${pageCount(pdf)} pages, ${kb(pdf.length)} (Chromium ${browser.version()})`,
    );
  } finally {
    await browser.close();
  }
}

/**
 * Asks Chromium which installed font it really draws the Japanese text with: without a CJK font
 * the PDF would still build, with tofu boxes. (Skia embeds the CFF-based Noto CJK as Type 3
 * subsets, so the PDF's font names cannot tell.)
 */
async function checkJapaneseFont(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('DOM.enable');
  await cdp.send('CSS.enable');
  const { root: doc } = await cdp.send('DOM.getDocument', { depth: -1 });
  const used = new Set();
  for (const selector of ['#ch-intro h1', '#ch-intro p', '#ch-login td', '.cover h1']) {
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: doc.nodeId, selector });
    if (!nodeId) fail(`nothing matches ${selector}`);
    const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
    const names = fonts.map((f) => f.familyName);
    names.forEach((n) => used.add(n));
    if (!names.some((n) => /CJK JP|Noto Sans JP/.test(n))) {
      fail(
        `${selector} is drawn with ${names.join(', ') || 'no font'}: apt-get install -y fonts-noto-cjk`,
      );
    }
  }
  await cdp.detach();
  return [...used];
}

/** Writes page numbers into the table of contents. */
function fillToc(page, numbers) {
  return page.$$eval(
    '.toc-page[data-target]',
    (cells, n) => {
      for (const c of cells) c.textContent = String(n[c.getAttribute('data-target')] ?? '');
    },
    numbers,
  );
}

/**
 * Maps each named destination of a Chromium (Skia) PDF to its 1-based page number. Skia writes
 * the catalog's /Dests and the page tree as plain dictionaries, so a text scan is enough.
 */
function destinationPages(buffer) {
  const text = buffer.toString('latin1');
  const object = (n) => {
    const m = new RegExp(`(?:^|[\\r\\n])${n} 0 obj\\s*([\\s\\S]*?)endobj`).exec(text);
    if (!m) fail(`PDF object ${n} not found`);
    return m[1];
  };
  const catalog = /\/Type \/Catalog[\s\S]*?>>\s*endobj/.exec(text)?.[0] ?? fail('no PDF catalog');
  const pagesRef = /\/Pages (\d+) 0 R/.exec(catalog)?.[1] ?? fail('no page tree');
  const order = [];
  const walk = (n) => {
    const body = object(n);
    if (/\/Type \/Pages\b/.test(body)) {
      const kids = /\/Kids \[([^\]]*)\]/.exec(body)?.[1] ?? '';
      for (const [, kid] of kids.matchAll(/(\d+) 0 R/g)) walk(kid);
    } else order.push(n);
  };
  walk(pagesRef);
  const destsRef = /\/Dests (\d+) 0 R/.exec(catalog)?.[1];
  const dests = destsRef ? object(destsRef) : (/\/Dests\s*(<<[\s\S]*?>>)/.exec(catalog)?.[1] ?? '');
  const result = {};
  for (const [, name, ref] of dests.matchAll(/\/([^\s/[\]<>()]+)\s*\[\s*(\d+) 0 R/g)) {
    const id = name.replace(/#([0-9a-fA-F]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16)));
    result[id] = order.indexOf(ref) + 1;
  }
  return result;
}

function pageCount(buffer) {
  return (buffer.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length;
}

function kb(bytes) {
  return `${Math.round(bytes / 1024)} KB`;
}

function fail(message) {
  throw new BuildError(message);
}
