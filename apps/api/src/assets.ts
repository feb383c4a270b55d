import path from 'node:path';
import { fileURLToPath } from 'node:url';

// This file sits one folder below apps/api, as the compiled bundle (apps/api/dist/server.mjs)
// does: resolved from here, the same relative paths hold whether the server runs from source
// (`npm run dev`) or from the bundle (`npm start`). Keep every on-disk path of the API here.
const here = path.dirname(fileURLToPath(import.meta.url));

/** apps/api/assets: the manual PDF and the channels' icons. */
export const ASSETS_DIR = path.resolve(here, '../assets');
/** The built web app (`npm run build -w @tenpo/web`). */
export const DEFAULT_WEB_DIST = path.resolve(here, '../../web/dist');
export const MANUAL_PDF = path.join(ASSETS_DIR, 'manual.pdf');
export const PUBLISHER_ICONS_DIR = path.join(ASSETS_DIR, 'publisher');
