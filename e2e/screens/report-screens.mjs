// Screenshots of /dashboard, /dashboard-chart, /report and /report-multiple against a mocked API
// (issue 10 §4, ADR 0037): the built SPA (`npm run build`) is served from apps/web/dist and every
// /api call is answered by page.route, so the screens can be looked at before the API exists.
// Usage: node e2e/screens/report-screens.mjs [out-dir]   (Chromium at /usr/bin/chromium)
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(here, '../../apps/web/dist');
const out = path.resolve(process.argv[2] ?? '/tmp/tenpo-report-screens');
fs.mkdirSync(out, { recursive: true });

const types = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.html': 'text/html',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};
const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  let file = path.join(dist, decodeURIComponent(url.pathname));
  if (!file.startsWith(dist) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
    file = path.join(dist, 'index.html');
  }
  res.writeHead(200, { 'Content-Type': types[path.extname(file)] ?? 'application/octet-stream' });
  fs.createReadStream(file).pipe(res);
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}`;

// ---- mocked answers ---------------------------------------------------------------------------
const user = (over = {}) => ({
  id: 1,
  email: 'shop@tenpo.example',
  name: '青木 翼',
  role: 1,
  is_leader: false,
  agreed_terms: 1,
  created_at: '2026-01-01T00:00:00.000Z',
  phone: '0312345678',
  company_name: '青木ベーカリー株式会社',
  store_name: '青木ベーカリー 恵比寿店',
  logo_url: null,
  agent_code: '0000',
  in_trial: false,
  trial_ends_at: null,
  payment_fail: false,
  agency_logo: null,
  status: 1,
  ...over,
});
const wave = (i, base, amp) =>
  Math.round(base + amp * Math.sin(i / 3) + ((i * 37) % 11) * (amp / 10));
const days = (n) => {
  const out = [];
  const now = Date.now() + 9 * 3_600_000;
  for (let i = n; i >= 1; i--)
    out.push(new Date(now - i * 86_400_000).toISOString().slice(0, 10).replaceAll('-', '/'));
  return out;
};
const daySeries = (n, base, amp) =>
  Object.fromEntries(days(n).map((d, i) => [d, Math.max(0, wave(i, base, amp))]));
const rangeDays = { 7: 7, 1: 30, 3: 91 };
const month = (k) => ({
  business_impressions_desktop_maps: 820 + k * 31,
  business_impressions_mobile_maps: 2400 + k * 97,
  business_impressions_desktop_search: 1300 + k * 45,
  business_impressions_mobile_search: 3100 + k * 120,
  business_bookings: 12 + k,
  business_conversations: 8 + (k % 3),
  business_direction_requests: 310 + k * 9,
  business_food_orders: 5 + (k % 4),
  call_clicks: 140 + k * 4,
  website_clicks: 460 + k * 15,
  search_keywords: 5200 + k * 210,
});
const year = (f) =>
  Object.fromEntries(
    ['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11'].map((m, i) => [m, f(i)]),
  );

const answer = (p, body) => {
  const r = /\/(7|1|3)$/.exec(p)?.[1] ?? '1';
  const n = rangeDays[r];
  if (p === '/refresh-token') return globalThis.__login;
  if (p === '/dashboard/box-data')
    return {
      data: {
        view_total: 123456,
        percent_view_total: 12.5,
        search_keywords_total: 5840,
        percent_search_keywords_total: -3.2,
        action_total: 2140,
        percent_action_total: 4.1,
        action_website: 1210,
        percent_action_website: null,
        action_driving_direction: 680,
        percent_action_driving_direction: 0,
        action_phone: 250,
        percent_action_phone: -8.7,
      },
    };
  if (p.startsWith('/dashboard/customer-search/'))
    return {
      data: {
        business_impressions_desktop_maps: 12000 / (r === '7' ? 4 : 1),
        business_impressions_mobile_maps: 41000,
        business_impressions_desktop_search: 20500,
        business_impressions_mobile_search: 49956,
        total: 123456,
      },
    };
  if (p.startsWith('/dashboard/search-keywords/'))
    return {
      data: {
        search_keywords_total: 5840,
        search_keywords: {
          パン屋: 'value_2310',
          '恵比寿 パン': 'value_1204',
          ベーカリー: 'value_830',
          クロワッサン: 'value_512',
          食パン: 'value_301',
          '恵比寿 カフェ': 'value_120',
          朝食: 'threshold_15',
          サンドイッチ: 'threshold_15',
          テイクアウト: 'threshold_15',
          'パン 通販': 'threshold_15',
        },
      },
    };
  if (p.startsWith('/dashboard/reactions-graph/'))
    return {
      data: {
        business_bookings: daySeries(n, 2, 2),
        business_conversations: daySeries(n, 1, 1),
        business_direction_requests: daySeries(n, 22, 8),
        business_food_orders: daySeries(n, 1, 1),
        call_clicks: daySeries(n, 8, 4),
        website_clicks: daySeries(n, 40, 12),
      },
    };
  if (p.startsWith('/dashboard/impressions-graph/'))
    return {
      data: {
        business_impressions_desktop_maps: daySeries(n, 400, 80),
        business_impressions_mobile_maps: daySeries(n, 1300, 200),
        business_impressions_desktop_search: daySeries(n, 650, 100),
        business_impressions_mobile_search: daySeries(n, 1600, 300),
      },
    };
  if (p.startsWith('/dashboard/customer-view/'))
    return { data: { views: daySeries(n, 3950, 500), total: 123456 } };
  if (p.startsWith('/dashboard/customer-call/'))
    return { data: { call_clicks: daySeries(n, 8, 4), total: 250 } };
  if (p === '/report/single-store/adjustment-period') {
    const months = {};
    let k = 0;
    for (let m = body.start_date.slice(0, 7); m <= body.end_date.slice(0, 7); k++) {
      months[m.replace('-', '/')] = month(k);
      const [y, mm] = m.split('-').map(Number);
      m = mm === 12 ? `${y + 1}-01` : `${y}-${String(mm + 1).padStart(2, '0')}`;
    }
    return { data: { ...body, months, total: month(0) } };
  }
  if (p === '/report/single-store/fixed-period')
    return {
      data: {
        search_graph: {
          current_year: year((i) => 4300 + i * 150),
          latest_year: year((i) => 3600 + i * 90),
        },
        impressions_graph: {
          current_year: year((i) => 3200 + i * 120),
          latest_year: year((i) => 2900 + i * 60),
        },
        reactions_graph: {
          current_year: year((i) => 900 + i * 30),
          latest_year: year((i) => 760 + i * 20),
        },
      },
    };
  if (p === '/report/multiple-store/adjustment-period')
    return {
      data: {
        ...body,
        stores: {
          '青木ベーカリー 恵比寿店': month(3),
          '青木ベーカリー 渋谷店': month(9),
          '青木ベーカリー 代官山店': month(1),
        },
        not_linked: [{ id: 10, name: '青木ベーカリー 中目黒店' }],
      },
    };
  if (p === '/agency/stores')
    return {
      data: {
        data: [8, 9, 10, 11].map((id) => ({
          id,
          name: [
            '青木ベーカリー 恵比寿店',
            '青木ベーカリー 渋谷店',
            '青木ベーカリー 中目黒店',
            '青木ベーカリー 代官山店',
          ][id - 8],
          status: 1,
          role: 1,
          in_trial: false,
          agency_logo: null,
          agent_code: '1001',
          company_name: '青木ベーカリー株式会社',
          person_in_charge: '青木',
          email: `s${id}@tenpo.example`,
          google_status: id === 10 ? 0 : 1,
          payment_fail: false,
        })),
        current_page: 1,
        last_page: 1,
        total: 4,
        per_page: 5,
        from: 1,
        to: 4,
      },
    };
  if (p === '/report/single-store/csv') return { data: { csv_url: '/api/report/csv/demo' } };
  if (p === '/report/csv/demo') return null;
  return { data: [] };
};

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
const shot = async (name, { path: route, login, ids, act }) => {
  const ctx = await browser.newContext({
    viewport: { width: 1360, height: 900 },
    locale: 'ja-JP',
    timezoneId: 'Asia/Tokyo',
    acceptDownloads: true,
  });
  const page = await ctx.newPage();
  globalThis.__login = { data: { token: 't1', connect_GMB: true, user: login } };
  const seen = [];
  await page.route('**/api/**', async (r) => {
    const p = new URL(r.request().url()).pathname.replace(/^\/api/, '');
    seen.push(`${r.request().method()} ${p}`);
    if (p === '/report/csv/demo') {
      return r.fulfill({
        status: 200,
        contentType: 'text/csv',
        body: '\ufeff月,表示回数\r\n2026/11,123\r\n',
      });
    }
    const body = r.request().postDataJSON?.() ?? null;
    // Dashboard and report reads answer in `data.data`; the others in `data` (spec 3 §7).
    const a = answer(p, body);
    const envelope = /^\/(dashboard|report)\//.test(p) && !p.endsWith('/csv') ? { data: a } : a;
    await r.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({ status_code: 200, ...envelope }),
    });
  });
  await page.addInitScript(
    ([ids]) => {
      localStorage.setItem('token', 't1');
      if (ids) localStorage.setItem('userIds', ids);
    },
    [ids],
  );
  await page.goto(`${base}${route}`);
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(800);
  if (act) await act(page, out);
  await page.screenshot({ path: path.join(out, `${name}.png`), fullPage: true });
  console.log(`${name}: ${page.url()} (${seen.length} calls: ${[...new Set(seen)].join(', ')})`);
  await ctx.close();
};

await shot('dashboard', { path: '/dashboard', login: user() });
await shot('dashboard-hover', {
  path: '/dashboard',
  login: user(),
  act: async (page, dir) => {
    // Hover the ring on its right-hand side: the centre shows that slice's label, value and share.
    const card = page.getByRole('region', { name: '検索の内訳' });
    const ring = card.locator('canvas');
    const box = await ring.boundingBox();
    await page.mouse.move(box.x + box.width / 2 + 88, box.y + box.height / 2);
    await page.waitForTimeout(300);
    await card.screenshot({ path: path.join(dir, 'dashboard-doughnut-hover.png') });
  },
});
await shot('dashboard-chart', { path: '/dashboard-chart', login: user() });
await shot('report', {
  path: '/report',
  login: user(),
  act: async (page, dir) => {
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'PDF ダウンロード' }).click();
    const d = await download;
    await d.saveAs(path.join(dir, 'report.pdf'));
    console.log(`pdf saved: ${d.suggestedFilename()}`);
  },
});
await shot('report-slider', {
  path: '/report',
  login: user(),
  act: async (page) => {
    await page.getByRole('slider', { name: '開始月' }).focus();
    for (let i = 0; i < 6; i++) await page.keyboard.press('ArrowLeft');
    await page.waitForTimeout(1000);
  },
});
await shot('report-trial', {
  path: '/report',
  login: user({ role: 0, in_trial: true }),
  act: async (page) => {
    await page.getByRole('button', { name: 'CSV ダウンロード' }).click();
    await page.getByRole('dialog').waitFor();
  },
});
const agency = user({
  id: 6,
  role: 11,
  email: 'agency@tenpo.example',
  store_name: null,
  company_name: 'デモ代理店',
});
await shot('report-multiple', { path: '/report', login: agency, ids: '8,9,10,11' });

await browser.close();
server.close();
