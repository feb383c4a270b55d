import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { ja, tokyoDay } from '@tenpo/domain';
import { iso } from '../src/lib/clock';
import {
  addOtherTenant,
  buildTestApp,
  call,
  DEMO_PASSWORD,
  login,
  multipart,
  png,
  type TestApp,
} from './helpers';
import type { Actor } from '../src/plugins/auth';
import { photoJpeg } from './posts-harness';

let t: TestApp;
const ids: Record<string, number> = {};
let otherGroup = 0;
let tokyoGroup = 0;
/** A post of the other tenant's store, with one failed target. */
let otherPost = 0;
let otherTarget = 0;
/** A photo of the other tenant's store's library. */
let otherPhoto = 0;
/** A product of the other tenant's store (ADR 0046). */
let otherProduct = 0;
/** A Google review of the other tenant's store (issue 25). */
let otherReview = 0;
let otherApproval = 0;
let otherPostApproval = 0;
/** A reply template of the other tenant's store (ADR 0091). */
let otherTemplate = 0;

/** A second tenant: another agency with one store and one group, created beside the demo data. */
beforeAll(async () => {
  t = await buildTestApp();
  const other = await addOtherTenant(t, { group: '他社グループ' });
  Object.assign(ids, other.ids);
  otherGroup = other.groupId ?? 0;
  const db = t.database.db;
  const now = iso(t.clock.now());
  const otherStore = { id: other.ids['other-store@tenpo.example'] ?? 0 };
  const post = await db
    .insertInto('posts')
    .values({
      submission_id: 'other-submission',
      store_id: otherStore.id,
      author_id: otherStore.id,
      content: '他社の投稿',
      button_type: 0,
      button_link: null,
      phone_number: null,
      channels: '["google_my_business"]',
      publish_at: now,
      delete_at: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  otherPost = post.id;
  otherTarget = (
    await db
      .insertInto('post_targets')
      .values({
        post_id: post.id,
        store_id: otherStore.id,
        publisher_key: 'google_my_business',
        state: 'failed',
        idempotency_key: 'post-target:other',
        external_id: null,
        external_url: null,
        error_kind: 'invalid',
        error_lines: '[]',
        attempts: 1,
        retries: 0,
        sent_at: null,
        published_at: null,
        remove_at: null,
        removed_at: null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  otherPhoto = (
    await db
      .insertInto('photos')
      .values({
        store_id: otherStore.id,
        media_format: 'PHOTO',
        sync_state: 'local',
        google_url: 'https://example.com/other.jpg',
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const otherCategory = await db
    .insertInto('product_categories')
    .values({ store_id: otherStore.id, name: '他社のカテゴリー', created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  otherProduct = (
    await db
      .insertInto('products')
      .values({
        store_id: otherStore.id,
        category_id: otherCategory.id,
        name: '他社の商品',
        description: null,
        price_range: 0,
        price: 500,
        min_price: null,
        max_price: null,
        button_type: 0,
        button_link: null,
        photos: '[]',
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  otherReview = (
    await db
      .insertInto('reviews')
      .values({
        store_id: otherStore.id,
        name: 'accounts/1/locations/2/reviews/other',
        reviewer_name: '他社のお客様',
        star_rating: 2,
        comment: '他社の口コミ',
        created_at: now,
        updated_at: now,
        first_seen_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  otherApproval = (
    await db
      .insertInto('reply_approvals')
      .values({
        review_id: otherReview,
        store_id: otherStore.id,
        state: 'pending',
        comment: '他社の返信',
        override: 0,
        author_id: otherStore.id,
        author_email: 'other-store@tenpo.example',
        created_at: now,
        updated_at: now,
        expires_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  otherPostApproval = (
    await db
      .insertInto('post_approvals')
      .values({
        post_id: otherPost,
        store_id: otherStore.id,
        state: 'pending',
        author_id: otherStore.id,
        author_email: 'other-store@tenpo.example',
        created_at: now,
        updated_at: now,
        expires_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  otherTemplate = (
    await db
      .insertInto('reply_templates')
      .values({
        owner_id: otherStore.id,
        star_band: 'low',
        body: '他社のテンプレート',
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  tokyoGroup = (
    await db
      .selectFrom('store_groups')
      .select('id')
      .where('name', '=', 'ミナト 東京エリア')
      .executeTakeFirstOrThrow()
  ).id;
});
afterAll(async () => t.close());

/** A valid report range: today (Tokyo) only; built while the cases are listed, before the app. */
const reportDates = () => {
  const today = tokyoDay(Date.now());
  return { start_date: today, end_date: today };
};

const id = (email: string): number => {
  const v = ids[email];
  if (v === undefined) throw new Error(email);
  return v;
};

type Attempt = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  body?: ReturnType<typeof multipart> | { payload: Record<string, unknown> };
};
/** The attempt; a case may first make what it needs (a link minted by the other tenant). */
type Make = () => Attempt | Promise<Attempt>;

/** A case: who tries it, what it tries, and the attempt. */
type Case = [string, string, Make];

/** Logos and posts. */
const logoAndPostCases: Case[] = [
  [
    'agency',
    "upload a logo for another agency's store",
    () => ({
      method: 'POST',
      url: '/api/agency/logo',
      body: multipart(
        { user_id: String(id('other-store@tenpo.example')) },
        { logo: { filename: 'a.png', type: 'image/png', data: png() } },
      ),
    }),
  ],
  [
    'agency',
    'upload a logo for an independent shop',
    () => ({
      method: 'POST',
      url: '/api/agency/logo',
      body: multipart(
        { user_id: String(id('shop@tenpo.example')) },
        { logo: { filename: 'a.png', type: 'image/png', data: png() } },
      ),
    }),
  ],
  [
    'agency',
    'upload a logo for a store that does not exist',
    () => ({
      method: 'POST',
      url: '/api/agency/logo',
      body: multipart(
        { user_id: '999999' },
        { logo: { filename: 'a.png', type: 'image/png', data: png() } },
      ),
    }),
  ],
  [
    'agency',
    "post to another agency's store",
    () => ({
      method: 'POST',
      url: '/api/posts',
      body: multipart({
        user_id: String(id('other-store@tenpo.example')),
        content: '本文',
        shared_sns_type: 'google_my_business',
      }),
    }),
  ],
  [
    'agency',
    "post to its own store and another agency's store at once",
    () => ({
      method: 'POST',
      url: '/api/posts',
      body: multipart({
        user_id: `${id('store02@tenpo.example')},${id('other-store@tenpo.example')}`,
        content: '本文',
        shared_sns_type: 'google_my_business',
      }),
    }),
  ],
  [
    'agency',
    "list another agency's store's posts",
    () => ({ method: 'GET', url: `/api/posts?user_id=${id('other-store@tenpo.example')}` }),
  ],
  [
    'agency',
    "read another agency's post by its store",
    () => ({
      method: 'GET',
      url: `/api/posts/${otherPost}?user_id=${id('other-store@tenpo.example')}`,
    }),
  ],
  [
    'agency',
    "read another agency's post through one of its own stores",
    () => ({
      method: 'GET',
      url: `/api/posts/${otherPost}?user_id=${id('store02@tenpo.example')}`,
    }),
  ],
  [
    'agency',
    "retry a target of another agency's post",
    () => ({ method: 'POST', url: `/api/posts/${otherPost}/targets/${otherTarget}/retry` }),
  ],
];

const offerEventNewsCases: Case[] = [
  // Offers, events and news (spec 2 §7): every call, for each type.
  ...(['offers', 'events', 'news'] as const).flatMap((type): [string, string, Make][] => [
    [
      'agency',
      `create ${type} for another agency's store`,
      () => ({
        method: 'POST',
        url: `/api/posts/${type}`,
        body: multipart({
          user_id: String(id('other-store@tenpo.example')),
          content: '本文',
          title: 'タイトル',
        }),
      }),
    ],
    [
      'agency',
      `update another agency's ${type}`,
      () => ({
        method: 'POST',
        url: `/api/posts/${type}/${otherPost}`,
        body: multipart({ user_id: String(id('other-store@tenpo.example')), content: '本文' }),
      }),
    ],
    [
      'agency',
      `delete another agency's ${type}`,
      () => ({
        method: 'DELETE',
        url: `/api/posts/${type}/${otherPost}?user_id=${id('other-store@tenpo.example')}`,
      }),
    ],
    [
      'agency',
      `delete another agency's ${type} through one of its own stores`,
      () => ({
        method: 'DELETE',
        url: `/api/posts/${type}/${otherPost}?user_id=${id('store02@tenpo.example')}`,
      }),
    ],
    [
      'agency',
      `list another agency's store's ${type}`,
      () => ({
        method: 'GET',
        url: `/api/posts/${type}?user_id=${id('other-store@tenpo.example')}`,
      }),
    ],
    [
      'agency',
      `read another agency's ${type}`,
      () => ({
        method: 'GET',
        url: `/api/posts/${type}/${otherPost}?user_id=${id('other-store@tenpo.example')}`,
      }),
    ],
  ]),
];

const productCases: Case[] = [
  // Products (issue 11 item 4, ADR 0046): every call, for another tenant's store and product.
  ...(
    [
      ['other-store@tenpo.example', 'its store'],
      ['store02@tenpo.example', 'one of its own stores'],
    ] as const
  ).flatMap(([store, through]): [string, string, Make][] => [
    [
      'agency',
      `read another agency's product through ${through}`,
      () => ({
        method: 'GET',
        url: `/api/posts/products/${otherProduct}?user_id=${id(store)}`,
      }),
    ],
    [
      'agency',
      `update another agency's product through ${through}`,
      () => ({
        method: 'POST',
        url: `/api/posts/products/${otherProduct}`,
        body: multipart({
          user_id: String(id(store)),
          productName: '変更',
          category: '0',
          productCategory: 'x',
        }),
      }),
    ],
    [
      'agency',
      `delete another agency's product through ${through}`,
      () => ({
        method: 'DELETE',
        url: `/api/posts/products/${otherProduct}?user_id=${id(store)}`,
      }),
    ],
  ]),
  ...(
    [
      ['agency', 'other-store@tenpo.example', "another agency's store"],
      ['shop', 'store02@tenpo.example', 'an agency store'],
    ] as const
  ).flatMap(([who, store, whose]): [string, string, Make][] => [
    [
      who,
      `list ${whose}'s products`,
      () => ({ method: 'GET', url: `/api/posts/products?user_id=${id(store)}` }),
    ],
    [
      who,
      `list ${whose}'s product categories`,
      () => ({ method: 'GET', url: `/api/posts/products/categories?user_id=${id(store)}` }),
    ],
    [
      who,
      `add a product to ${whose}`,
      () => ({
        method: 'POST',
        url: '/api/posts/products',
        body: multipart({
          user_id: String(id(store)),
          productName: '商品',
          category: '0',
          productCategory: 'x',
        }),
      }),
    ],
  ]),
];

/** Basic information, its lookups, the store information forms, Google's version, the knowledge tag. */
const storeInformationCases: Case[] = [
  [
    'agency',
    "read another agency's store's basic information",
    () => ({
      method: 'GET',
      url: `/api/entity/basic-information?user_id=${id('other-store@tenpo.example')}`,
    }),
  ],
  // The basic-information lookups (spec 2 §7): the store must be one the session may read.
  ...(['prefectures', 'categories'] as const).flatMap((lookup): [string, string, Make][] => [
    [
      'agency',
      `read the ${lookup} of another agency's store`,
      () => ({
        method: 'GET',
        url: `/api/entity/${lookup}?user_id=${id('other-store@tenpo.example')}`,
      }),
    ],
    [
      'shop',
      `read the ${lookup} of an agency store`,
      () => ({
        method: 'GET',
        url: `/api/entity/${lookup}?user_id=${id('store02@tenpo.example')}`,
      }),
    ],
  ]),
  [
    'shop',
    "read an agency store's basic information",
    () => ({
      method: 'GET',
      url: `/api/entity/basic-information?user_id=${id('store02@tenpo.example')}`,
    }),
  ],
  // Store information saves (issue 11): every form, for another tenant's store.
  ...(
    [
      [
        'basic-information',
        {
          name: '店',
          postal_code: '150-0002',
          prefecture: '東京都',
          address1: '1-1',
          address2: '1F',
        },
      ],
      ['business-details', { description: '説明', hours: '[]' }],
      ['contact-websites-apps', { website_url: 'https://a.example' }],
    ] as const
  ).flatMap(([form, body]): [string, string, Make][] => [
    [
      'agency',
      `save another agency's store's ${form}`,
      () => ({
        method: 'PUT',
        url: `/api/entity/${form}`,
        body: { payload: { user_id: id('other-store@tenpo.example'), ...body } },
      }),
    ],
    [
      'shop',
      `save an agency store's ${form}`,
      () => ({
        method: 'PUT',
        url: `/api/entity/${form}`,
        body: { payload: { user_id: id('store02@tenpo.example'), ...body } },
      }),
    ],
  ]),
  // Google's own version of a listing (ADR 0061): accepting or resending for a foreign store.
  ...(
    [
      ['agency', 'other-store@tenpo.example', "another agency's store"],
      ['shop', 'store02@tenpo.example', 'an agency store'],
    ] as const
  ).flatMap(([who, email, whose]): [string, string, Make][] =>
    (['accept', 'resend'] as const).map((choice) => [
      who,
      `${choice} Google's version of ${whose}`,
      () => ({
        method: 'POST',
        url: '/api/entity/google-version',
        body: { payload: { user_id: id(email), choice } },
      }),
    ]),
  ),
  // Knowledge tag (issue 11 item 3): every call that names a store.
  ...(
    [
      ['agency', 'other-store@tenpo.example', "another agency's store"],
      ['shop', 'store02@tenpo.example', 'an agency store'],
    ] as const
  ).flatMap(([who, email, whose]): [string, string, Make][] => [
    [
      who,
      `read the knowledge tag of ${whose}`,
      () => ({ method: 'GET', url: `/api/knowledge-tag?user_id=${id(email)}` }),
    ],
    [
      who,
      `set the analytics option of ${whose}`,
      () => ({
        method: 'PUT',
        url: '/api/knowledge-tag/settings',
        body: { payload: { user_id: id(email), analytics_option: 0 } },
      }),
    ],
    [
      who,
      `read the schema markup of ${whose}`,
      () => ({ method: 'GET', url: `/api/knowledge-tag/schema-markup?user_id=${id(email)}` }),
    ],
    [
      who,
      `save the schema markup of ${whose}`,
      () => ({
        method: 'PUT',
        url: '/api/knowledge-tag/schema-markup',
        body: { payload: { user_id: id(email), template: '{"name": "{{name}}"}' } },
      }),
    ],
    [
      who,
      `reset the schema markup of ${whose}`,
      () => ({ method: 'DELETE', url: `/api/knowledge-tag/schema-markup?user_id=${id(email)}` }),
    ],
  ]),
];

const photoCases: Case[] = [
  // Photo library (issue 11): list, upload and delete for another tenant's store.
  [
    'agency',
    "list another agency's store's photos",
    () => ({ method: 'GET', url: `/api/photos?user_id=${id('other-store@tenpo.example')}` }),
  ],
  [
    'shop',
    "list an agency store's photos",
    () => ({ method: 'GET', url: `/api/photos?user_id=${id('store02@tenpo.example')}` }),
  ],
  [
    'agency',
    "upload a photo to another agency's store",
    () => ({
      method: 'POST',
      url: '/api/photos/upload',
      body: multipart(
        { user_id: String(id('other-store@tenpo.example')) },
        { photos: { filename: 'a.png', type: 'image/png', data: png() } },
      ),
    }),
  ],
  [
    'agency',
    "delete another agency's photo",
    () => ({
      method: 'DELETE',
      url: `/api/photos/${otherPhoto}?user_id=${id('other-store@tenpo.example')}`,
    }),
  ],
  [
    'agency',
    "delete another agency's photo through one of its own stores",
    () => ({
      method: 'DELETE',
      url: `/api/photos/${otherPhoto}?user_id=${id('store02@tenpo.example')}`,
    }),
  ],
  [
    'shop',
    "list an agency store's posts",
    () => ({ method: 'GET', url: `/api/posts?user_id=${id('store02@tenpo.example')}` }),
  ],
];

const reviewCases: Case[] = [
  // Reviews (issue 25): list, read, check, reply and delete for another tenant's store.
  [
    'agency',
    "list another agency's store's reviews",
    () => ({ method: 'GET', url: `/api/reviews?user_id=${id('other-store@tenpo.example')}` }),
  ],
  [
    'shop',
    "list an agency store's reviews among its own",
    () => ({
      method: 'GET',
      url: `/api/reviews?user_id=${id('shop@tenpo.example')},${id('store02@tenpo.example')}`,
    }),
  ],
  [
    'agency',
    "read another agency's review",
    () => ({
      method: 'GET',
      url: `/api/reviews/${otherReview}?user_id=${id('other-store@tenpo.example')}`,
    }),
  ],
  [
    'agency',
    "read another agency's review through one of its own stores",
    () => ({
      method: 'GET',
      url: `/api/reviews/${otherReview}?user_id=${id('store02@tenpo.example')}`,
    }),
  ],
  [
    'agency',
    "check a reply for another agency's store",
    () => ({
      method: 'POST',
      url: '/api/reviews/check',
      body: {
        payload: { user_id: id('other-store@tenpo.example'), comment: 'ありがとうございます' },
      },
    }),
  ],
  [
    'agency',
    "reply to another agency's review",
    () => ({
      method: 'POST',
      url: `/api/reviews/${otherReview}/reply`,
      body: {
        payload: { user_id: id('other-store@tenpo.example'), comment: 'ありがとうございます' },
      },
    }),
  ],
  [
    'agency',
    "reply to another agency's review through one of its own stores",
    () => ({
      method: 'POST',
      url: `/api/reviews/${otherReview}/reply`,
      body: { payload: { user_id: id('store02@tenpo.example'), comment: 'ありがとうございます' } },
    }),
  ],
  [
    'agency',
    "delete the reply to another agency's review through one of its own stores",
    () => ({
      method: 'DELETE',
      url: `/api/reviews/${otherReview}/reply?user_id=${id('store02@tenpo.example')}`,
    }),
  ],
];

const draftCases: Case[] = [
  // Reply templates and drafts (issue 25 item 4, ADR 0091).
  [
    'agency',
    "list another agency's store's reply templates",
    () => ({
      method: 'GET',
      url: `/api/reviews/templates?user_id=${id('other-store@tenpo.example')}`,
    }),
  ],
  [
    'shop',
    "list an agency store's reply templates",
    () => ({ method: 'GET', url: `/api/reviews/templates?user_id=${id('store02@tenpo.example')}` }),
  ],
  [
    'agency',
    "add a reply template to another agency's store",
    () => ({
      method: 'POST',
      url: '/api/reviews/templates',
      body: {
        payload: {
          user_id: id('other-store@tenpo.example'),
          star_band: 'low',
          body: 'テンプレート',
          scope: 'store',
        },
      },
    }),
  ],
  [
    'agency',
    "change another agency's reply template through one of its own stores",
    () => ({
      method: 'PATCH',
      url: `/api/reviews/templates/${otherTemplate}`,
      body: { payload: { user_id: id('store02@tenpo.example'), body: '乗っ取り' } },
    }),
  ],
  [
    'agency',
    "delete another agency's reply template through one of its own stores",
    () => ({
      method: 'DELETE',
      url: `/api/reviews/templates/${otherTemplate}?user_id=${id('store02@tenpo.example')}`,
    }),
  ],
  [
    'agency',
    "draft a reply to another agency's review through one of its own stores",
    () => ({
      method: 'POST',
      url: `/api/reviews/${otherReview}/draft`,
      body: { payload: { user_id: id('store02@tenpo.example'), source: 'template' } },
    }),
  ],
];

const approvalCases: Case[] = [
  // Approval of replies (issue 25 item 6): settings, requests and decisions of another tenant.
  [
    'agency',
    "read another agency's approval rule",
    () => ({
      method: 'GET',
      url: `/api/reviews/approval-settings?user_id=${id('other-store@tenpo.example')}`,
    }),
  ],
  [
    'shop',
    "set its agency's approval rule",
    () => ({
      method: 'PUT',
      url: '/api/reviews/approval-settings',
      body: { payload: { user_id: id('agency@tenpo.example'), replies_need_approval: false } },
    }),
  ],
  [
    'agency',
    "set another store's approval rule as if it were an agency",
    () => ({
      method: 'PUT',
      url: '/api/reviews/approval-settings',
      body: { payload: { user_id: id('store02@tenpo.example'), replies_need_approval: true } },
    }),
  ],
  [
    'agency',
    "read another agency's store's review-request kit",
    () => ({
      method: 'GET',
      url: `/api/reviews/request-kit?user_id=${id('other-store@tenpo.example')}`,
    }),
  ],
  [
    'agency',
    "list another agency's store's requests",
    () => ({
      method: 'GET',
      url: `/api/reviews/approvals?user_id=${id('other-store@tenpo.example')}`,
    }),
  ],
  [
    'agency',
    "ask for approval of a reply to another agency's review through one of its own stores",
    () => ({
      method: 'POST',
      url: `/api/reviews/${otherReview}/approvals`,
      body: { payload: { user_id: id('store02@tenpo.example'), comment: 'ありがとうございます' } },
    }),
  ],
  [
    'agency',
    "approve another agency's request",
    () => ({
      method: 'POST',
      url: `/api/reviews/approvals/${otherApproval}/approve`,
      body: { payload: { user_id: id('other-store@tenpo.example') } },
    }),
  ],
  [
    'agency',
    "approve another agency's request through one of its own stores",
    () => ({
      method: 'POST',
      url: `/api/reviews/approvals/${otherApproval}/approve`,
      body: { payload: { user_id: id('store02@tenpo.example') } },
    }),
  ],
  [
    'agency',
    "send back another agency's request through one of its own stores",
    () => ({
      method: 'POST',
      url: `/api/reviews/approvals/${otherApproval}/reject`,
      body: { payload: { user_id: id('store02@tenpo.example'), note: '' } },
    }),
  ],
  [
    'agency',
    "withdraw another agency's request through one of its own stores",
    () => ({
      method: 'DELETE',
      url: `/api/reviews/approvals/${otherApproval}?user_id=${id('store02@tenpo.example')}`,
    }),
  ],
  // Approval of posts (ADR 0095).
  [
    'agency',
    "list another agency's store's post requests",
    () => ({
      method: 'GET',
      url: `/api/posts/approvals?user_id=${id('other-store@tenpo.example')}`,
    }),
  ],
  [
    'agency',
    "approve another agency's post",
    () => ({
      method: 'POST',
      url: `/api/posts/approvals/${otherPostApproval}/approve`,
      body: { payload: { user_id: id('other-store@tenpo.example') } },
    }),
  ],
  [
    'agency',
    "approve another agency's post through one of its own stores",
    () => ({
      method: 'POST',
      url: `/api/posts/approvals/${otherPostApproval}/approve`,
      body: { payload: { user_id: id('store02@tenpo.example') } },
    }),
  ],
  [
    'agency',
    "send back another agency's post through one of its own stores",
    () => ({
      method: 'POST',
      url: `/api/posts/approvals/${otherPostApproval}/reject`,
      body: { payload: { user_id: id('store02@tenpo.example'), note: '' } },
    }),
  ],
  [
    'agency',
    "withdraw another agency's post request through one of its own stores",
    () => ({
      method: 'DELETE',
      url: `/api/posts/approvals/${otherPostApproval}?user_id=${id('store02@tenpo.example')}`,
    }),
  ],
];

const reportAndGroupCases: Case[] = [
  // Dashboard and reports (issue 10): every call, for another tenant's store.
  ...(
    [
      ['/dashboard/box-data', {}],
      ['/dashboard/customer-search/1', {}],
      ['/dashboard/customer-call/1', {}],
      ['/dashboard/customer-view/1', {}],
      ['/dashboard/reactions-graph/1', {}],
      ['/dashboard/search-keywords/1', {}],
      ['/dashboard/impressions-graph/1', {}],
      ['/report/single-store/fixed-period', { fixed_report: true }],
      ['/report/single-store/adjustment-period', reportDates()],
      ['/report/single-store/csv', reportDates()],
    ] as const
  ).flatMap(([url, extra]): [string, string, Make][] => [
    [
      'agency',
      `${url} for another agency's store`,
      () => ({
        method: 'POST',
        url: `/api${url}`,
        body: { payload: { user_id: id('other-store@tenpo.example'), ...extra } },
      }),
    ],
    [
      'shop',
      `${url} for an agency store`,
      () => ({
        method: 'POST',
        url: `/api${url}`,
        body: { payload: { user_id: id('store02@tenpo.example'), ...extra } },
      }),
    ],
  ]),
  ...(
    [
      '/report/multiple-store/adjustment-period',
      '/report/multiple-store/reviews',
      '/report/multiple-store/csv',
    ] as const
  ).map((url): [string, string, Make] => [
    'agency',
    `${url} with one of another agency's stores`,
    () => ({
      method: 'POST',
      url: `/api${url}`,
      body: {
        payload: {
          user_id: [id('store02@tenpo.example'), id('other-store@tenpo.example')],
          ...reportDates(),
        },
      },
    }),
  ]),
  [
    'agency',
    "list another agency's group",
    () => ({ method: 'GET', url: `/api/agency/groups/${otherGroup}/stores` }),
  ],
  [
    'leader',
    'list a group it does not lead',
    () => ({ method: 'GET', url: `/api/group-leader/groups/${otherGroup}/stores` }),
  ],
  [
    'other-agency',
    "list the demo agency's group",
    () => ({ method: 'GET', url: `/api/agency/groups/${tokyoGroup}/stores` }),
  ],
];

const paymentCases: Case[] = [
  // Payments (issue 13, ADR 0050): every call names a store and goes through store access.
  ...(
    [
      ['agency', 'other-store@tenpo.example', "another agency's store"],
      ['agency', 'shop@tenpo.example', 'an independent shop'],
      ['shop', 'store02@tenpo.example', 'an agency store'],
      ['other-agency', 'store02@tenpo.example', "the demo agency's store"],
    ] as const
  ).flatMap(([who, store, whose]): [string, string, Make][] => [
    ...(
      [
        '/payment/provider',
        '/payment-methods',
        '/payment-plans',
        '/payment/selected-payment-method',
        '/payment/selected-payment-plan',
        '/payment/credit-card/reference',
        '/payment/credit-card/remove',
      ] as const
    ).map((url): [string, string, Make] => [
      who,
      `GET ${url} of ${whose}`,
      () => ({ method: 'GET', url: `/api${url}?user_id=${id(store)}` }),
    ]),
    ...(
      [
        ['/payment-methods', { payment_name: 'credit_card' }],
        ['/payment-plans', { payment_name: 'credit_card', payment_plan: 2 }],
        ['/payment/credit-card/register', { token: 'tok', tokenKey: 'key' }],
        // EMV 3-D Secure (ADR 0059): starting it and coming back from the issuer.
        ['/payment/credit-card/authenticate', { token: 'tok', tokenKey: 'key' }],
        ['/payment/credit-card/authenticate/complete', { state: 'state', tracking_id: 'tr' }],
        ['/payment/purchase', {}],
      ] as const
    ).map(([url, extra]): [string, string, Make] => [
      who,
      `POST ${url} for ${whose}`,
      () => ({
        method: 'POST',
        url: `/api${url}`,
        body: { payload: { user_id: id(store), ...extra } },
      }),
    ]),
  ]),
  [
    'other-agency',
    "change the demo agency's group",
    () => ({
      method: 'PUT',
      url: `/api/agency/groups/${tokyoGroup}`,
      body: {
        payload: { name: '乗っ取り', store_list: String(id('other-store@tenpo.example')) },
      },
    }),
  ],
];

/** Channel connections, change history, CSV links, and what a group leader may not pay for. */
const channelAndLinkCases: Case[] = [
  // Channel connections (spec 1 §7): every call names the store.
  ...(
    [
      ['GET', '/publisher', {}],
      ['GET', '/publisher/connect', { publisher_key: 'google_my_business' }],
      ['GET', '/publisher/facebook/pages', {}],
      ['GET', '/entity/locations', {}],
      ['PUT', '/publisher/disconnect', { publisher_id: 1, entity_id: null }],
      ['POST', '/publisher/google-my-business/sync', {}],
      ['POST', '/publisher/facebook/connect-page', { page_id: 'page-1' }],
      ['POST', '/entity/location', { location_id: 'locations/1' }],
    ] as const
  ).map(([method, url, extra]): [string, string, Make] => [
    'agency',
    `${method} ${url} of another agency's store`,
    () =>
      method === 'GET'
        ? {
            method,
            url: `/api${url}?${new URLSearchParams({
              ...extra,
              user_id: String(id('other-store@tenpo.example')),
            })}`,
          }
        : {
            method,
            url: `/api${url}`,
            body: { payload: { ...extra, user_id: id('other-store@tenpo.example') } },
          },
  ]),
  [
    'agency',
    "read the change history of another agency's store",
    () => ({ method: 'GET', url: `/api/audit-log?store_id=${id('other-store@tenpo.example')}` }),
  ],
  [
    'agency',
    'open a CSV link the other agency made for its store',
    async () => {
      const other = await login(t.app, 'other-agency@tenpo.example');
      const made = await call(t.app, {
        method: 'POST',
        url: '/api/report/single-store/csv',
        token: other,
        payload: { user_id: id('other-store@tenpo.example'), ...reportDates() },
      });
      const link = (made.json() as { data: { csv_url: string } }).data.csv_url;
      return { method: 'GET', url: link.replace(t.config.publicUrl, '') };
    },
  ],
  // A group leader reads its group's stores; it does not pay for them.
  ...(
    [
      ['/payment-plans', { payment_name: 'credit_card', payment_plan: 2 }],
      ['/payment-methods', { payment_name: 'credit_card' }],
      ['/payment/credit-card/register', { token: 'tok', tokenKey: 'key' }],
      ['/payment/credit-card/authenticate', { token: 'tok', tokenKey: 'key' }],
      ['/payment/credit-card/authenticate/complete', { state: 'state', tracking_id: 'tr' }],
      ['/payment/purchase', {}],
    ] as const
  ).map(([url, extra]): [string, string, Make] => [
    'leader',
    `POST ${url} for a store of its group`,
    () => ({
      method: 'POST',
      url: `/api${url}`,
      body: { payload: { user_id: id('store02@tenpo.example'), ...extra } },
    }),
  ]),
  [
    'leader',
    'remove the card of a store of its group',
    () => ({
      method: 'GET',
      url: `/api/payment/credit-card/remove?user_id=${id('store02@tenpo.example')}`,
    }),
  ],
];

/** Every attempt on another tenant's store or object, by topic. */
const cases: Case[] = [
  ...logoAndPostCases,
  ...offerEventNewsCases,
  ...productCases,
  ...storeInformationCases,
  ...photoCases,
  ...reviewCases,
  ...draftCases,
  ...approvalCases,
  ...reportAndGroupCases,
  ...paymentCases,
  ...channelAndLinkCases,
];

describe("a session cannot read or change another tenant's store (404)", () => {
  it.each(cases)('%s: %s', async (who, _what, make) => {
    const token = await login(t.app, `${who}@tenpo.example`);
    const c = await make();
    const res = await call(t.app, { method: c.method, url: c.url, token, ...(c.body ?? {}) });
    expect(res.statusCode).toBe(404);
  });

  /**
   * Issue 22 item 14 (ADR 0068): access is a property of the route. The route table is walked:
   * every API route declares its rule (`config.access`, plugins/route-guards.ts), and every route
   * that takes a store id or an object id has a case in the list above, unless it is open (its
   * owner text says what stands in for a session) or for the manager, who has no tenant.
   */
  it('every route declares its access rule, and each taking a store or object id has a case above', async () => {
    type Rule = {
      who: string;
      store?: { mode: string; from: string; field?: string };
      owner?: string;
    };
    const keysOf = (schema: unknown): string[] =>
      Object.keys((schema as { shape?: Record<string, unknown> } | undefined)?.shape ?? {});
    // Swagger UI and the document itself are served by @fastify/swagger-ui, public by design.
    const exempt = (url: string) => url === '/api/docs' || url.startsWith('/api/docs/');
    const routes = t.app.routeTable
      .flatMap((r) =>
        ([] as string[])
          .concat(r.method as string)
          .filter((m) => m !== 'HEAD')
          .map((method) => ({ method, url: r.url, schema: r.schema ?? {}, config: r.config })),
      )
      .filter((r) => r.url.startsWith('/api/') && !exempt(r.url));
    expect(routes.length).toBeGreaterThan(120);
    const undeclared = routes.filter((r) => !(r.config as { access?: Rule })?.access);
    expect(undeclared.map((r) => `${r.method} ${r.url}`)).toEqual([]);

    const pattern = (url: string) =>
      new RegExp(`^${url.replace(/:[A-Za-z]+/g, '[^/]+').replace(/\*/g, '.*')}$`);
    const paramCount = (url: string) => (url.match(/:/g) ?? []).length;
    /** The route a concrete call reaches: static segments win over parameters, as in the router. */
    const routeOf = (method: string, url: string) =>
      routes
        .filter((r) => r.method === method && pattern(r.url).test(url.split('?')[0] ?? ''))
        .sort((a, b) => paramCount(a.url) - paramCount(b.url))[0];
    const covered = new Set<string>();
    for (const [, , make] of cases) {
      const c = await make();
      const r = routeOf(c.method, c.url);
      covered.add(r ? `${r.method} ${r.url}` : `unmatched ${c.method} ${c.url}`);
    }
    expect([...covered].filter((k) => k.startsWith('unmatched'))).toEqual([]);

    const missing: string[] = [];
    const unexplained: string[] = [];
    let taking = 0;
    for (const r of routes) {
      const rule = (r.config as { access: Rule }).access;
      const s = r.schema as { querystring?: unknown; body?: unknown; params?: unknown };
      const storeKeys = [...keysOf(s.querystring), ...keysOf(s.body)].filter((k) =>
        ['user_id', 'store_id'].includes(k),
      );
      const objectIds = keysOf(s.params).filter((k) => /^(id|[a-z]+Id)$/.test(k));
      if (!storeKeys.length && !objectIds.length && !rule.store) continue;
      taking++;
      if (rule.who === 'manager') continue;
      // An object id without a store rule, or an open route naming a store: say who checks it.
      if ((rule.who === 'public' || (objectIds.length && !rule.store)) && !rule.owner)
        unexplained.push(`${r.method} ${r.url}`);
      if (storeKeys.length && !rule.store && rule.who !== 'public')
        unexplained.push(`${r.method} ${r.url} names a store without a store rule`);
      if (rule.who === 'public') continue;
      if (!covered.has(`${r.method} ${r.url}`)) missing.push(`${r.method} ${r.url}`);
    }
    expect(taking).toBeGreaterThan(70);
    expect(unexplained).toEqual([]);
    expect(missing).toEqual([]);
  });

  it("leaves another tenant's product as it was", async () => {
    const row = await t.database.db
      .selectFrom('products')
      .select(['name', 'store_id'])
      .where('id', '=', otherProduct)
      .executeTakeFirst();
    expect(row).toEqual({ name: '他社の商品', store_id: id('other-store@tenpo.example') });
  });

  it("a CSV link of another tenant's store answers 404 to the agency", async () => {
    const other = await login(t.app, 'other-agency@tenpo.example');
    const made = await call(t.app, {
      method: 'POST',
      url: '/api/report/single-store/csv',
      token: other,
      payload: { user_id: id('other-store@tenpo.example'), ...reportDates() },
    });
    expect(made.statusCode).toBe(200);
    const url = (made.json() as { data: { csv_url: string } }).data.csv_url.replace(
      t.config.publicUrl,
      '',
    );
    expect((await call(t.app, { method: 'GET', url, token: other })).statusCode).toBe(200);
    const agency = await login(t.app, 'agency@tenpo.example');
    expect((await call(t.app, { method: 'GET', url, token: agency })).statusCode).toBe(404);
  });

  it("lists never leak another tenant's stores", async () => {
    const token = await login(t.app, 'agency@tenpo.example');
    const res = (
      await call(t.app, { method: 'GET', url: '/api/agency/stores?per_page=100', token })
    ).json() as { data: { data: { email: string }[] } };
    expect(res.data.data.map((s) => s.email)).not.toContain('other-store@tenpo.example');
    const other = await login(t.app, 'other-agency@tenpo.example');
    const theirs = (
      await call(t.app, { method: 'GET', url: '/api/agency/stores', token: other })
    ).json() as { data: { data: { email: string }[] } };
    expect(theirs.data.data.map((s) => s.email)).toEqual(['other-store@tenpo.example']);
  });
});

describe('storeFor: who may act for a store', () => {
  const actor = async (email: string): Promise<Actor> => {
    const user = await t.database.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    return {
      user,
      session: {
        id: 0,
        user_id: user.id,
        token_hash: '',
        created_at: '',
        expires_at: '',
        revoked_at: null,
        replaced_by: null,
        user_agent: null,
        ip: null,
      },
    };
  };

  it.each([
    ['shop@tenpo.example', 'shop@tenpo.example', 'write', true],
    ['shop@tenpo.example', 'trial@tenpo.example', 'read', false],
    ['shop@tenpo.example', 'store02@tenpo.example', 'read', false],
    ['agency@tenpo.example', 'store02@tenpo.example', 'write', true],
    ['agency@tenpo.example', 'store12@tenpo.example', 'read', true],
    ['agency@tenpo.example', 'shop@tenpo.example', 'read', false],
    ['agency@tenpo.example', 'other-store@tenpo.example', 'read', false],
    ['agency@tenpo.example', 'other-agency@tenpo.example', 'read', false],
    ['other-agency@tenpo.example', 'store02@tenpo.example', 'read', false],
    ['leader@tenpo.example', 'store02@tenpo.example', 'read', true],
    ['leader@tenpo.example', 'store02@tenpo.example', 'write', false],
    ['leader@tenpo.example', 'store05@tenpo.example', 'read', false],
    ['store02@tenpo.example', 'leader@tenpo.example', 'read', false],
    ['manager@tenpo.example', 'other-store@tenpo.example', 'write', true],
    ['manager@tenpo.example', 'agency@tenpo.example', 'read', true],
    ['trial@tenpo.example', 'expired@tenpo.example', 'read', false],
  ] as const)('%s → %s (%s): %s', async (who, target, mode, allowed) => {
    const a = await actor(who);
    const p = t.app.storeAccess.storeFor(a, id(target), mode);
    if (allowed) await expect(p).resolves.toMatchObject({ email: target });
    else await expect(p).rejects.toMatchObject({ statusCode: 404 });
  });

  it('answers 404 for a store that does not exist, and refuses a whole list if one is refused', async () => {
    const a = await actor('agency@tenpo.example');
    await expect(t.app.storeAccess.storeFor(a, 987654, 'read')).rejects.toMatchObject({
      statusCode: 404,
    });
    // The full rows, and the slim list of the report calls: the same rule.
    const { storeAccess } = t.app;
    for (const list of [storeAccess.storesFor, storeAccess.storeNamesFor]) {
      const foreign = [id('store02@tenpo.example'), id('other-store@tenpo.example')];
      await expect(list(a, foreign, 'read')).rejects.toMatchObject({ statusCode: 404 });
      const own = [id('store02@tenpo.example'), id('store03@tenpo.example')];
      await expect(list(a, own, 'read')).resolves.toMatchObject([
        { email: 'store02@tenpo.example' },
        { email: 'store03@tenpo.example' },
      ]);
    }
  });

  it('a manager reads any store through /admin/stores/{id}; a shop may not', async () => {
    const manager = await login(t.app, 'manager@tenpo.example');
    expect(
      (
        await call(t.app, {
          method: 'GET',
          url: `/api/admin/stores/${id('other-store@tenpo.example')}`,
          token: manager,
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (await call(t.app, { method: 'GET', url: '/api/admin/stores/999999', token: manager }))
        .statusCode,
    ).toBe(404);
    const shop = await login(t.app, 'shop@tenpo.example');
    expect(
      (
        await call(t.app, {
          method: 'GET',
          url: `/api/admin/stores/${id('trial@tenpo.example')}`,
          token: shop,
        })
      ).statusCode,
    ).toBe(403);
  });
});

describe("a post cannot use another tenant's upload by its URL (issue 22 item 9)", () => {
  it('medias[0] naming a foreign photo is 422 as an unknown one; the store’s own photo is taken', async () => {
    const db = t.database.db;
    const now = iso(t.clock.now());
    const jpeg = await photoJpeg();
    const stored = async (storeId: number) => {
      const o = await t.app.storage.put(Readable.from([jpeg]), {
        folder: 'media/photos',
        ext: 'jpg',
        contentType: 'image/jpeg',
      });
      await db
        .insertInto('photos')
        .values({
          store_id: storeId,
          media_format: 'PHOTO',
          storage_key: o.key,
          mime: 'image/jpeg',
          bytes: jpeg.length,
          sync_state: 'local',
          created_at: now,
          updated_at: now,
        })
        .execute();
      return `${t.config.publicUrl}/uploads/${o.key}`;
    };
    const foreign = await stored(id('other-store@tenpo.example'));
    const own = await stored(id('shop@tenpo.example'));
    const token = await login(t.app, 'shop@tenpo.example');
    const news = (url: string, path = '/api/posts/news') =>
      call(t.app, {
        method: 'POST',
        url: path,
        token,
        ...multipart({
          user_id: String(id('shop@tenpo.example')),
          content: `お知らせ ${url.slice(-12)}`,
          shared_sns_type: 'google_my_business',
          'medias[0]': url,
        }),
      });
    for (const path of ['/api/posts/news', '/api/posts']) {
      const refused = await news(foreign, path);
      expect([path, refused.statusCode]).toEqual([path, 422]);
      expect(refused.json()).toMatchObject({ errors: { 'medias.0': [ja.postMediaNotFound] } });
    }
    // The same with the path only, as a copy of a post sends it.
    expect((await news(foreign.slice(t.config.publicUrl.length))).statusCode).toBe(422);
    const ok = await news(own);
    expect(ok.statusCode, ok.body).toBe(200);
  });
});

describe('the link mailed to a new login address (issue 22 item 4, ADR 0065)', () => {
  it("changes only the account that asked, never the session's that opens it", async () => {
    const asker = 'other-store@tenpo.example';
    const token = await login(t.app, asker);
    const next = 'other-store-new@example.jp';
    const asked = await call(t.app, {
      method: 'POST',
      url: '/api/account-setting/information',
      token,
      ...multipart({ name: '他社', email: next, current_password: DEMO_PASSWORD }),
    });
    expect(asked.statusCode, asked.body).toBe(200);
    await t.app.queue.drain();
    const text = t.mailbox.list({ to: next })[0]?.text ?? '';
    const link = new URL(/https?:\/\/\S+/.exec(text)?.[0] ?? 'http://missing.invalid/');
    const emailOf = async (userId: number) =>
      (
        await t.database.db
          .selectFrom('users')
          .select('email')
          .where('id', '=', userId)
          .executeTakeFirstOrThrow()
      ).email;
    try {
      // Another tenant's agency opens it while signed in: its own address stays as it was.
      const other = await login(t.app, 'agency@tenpo.example');
      const res = await call(t.app, {
        method: 'POST',
        url: '/api/account-setting/email/confirm',
        token: other,
        payload: { token: link.searchParams.get('token') },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(await emailOf(id('agency@tenpo.example'))).toBe('agency@tenpo.example');
      expect(await emailOf(id(asker))).toBe(next);
    } finally {
      await t.database.db
        .updateTable('users')
        .set({ email: asker })
        .where('id', '=', id(asker))
        .execute();
    }
  });
});
