import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * Table types. Storage rules (docs/decisions/0003-storage-types.md): times are ISO-8601 UTC
 * text, booleans are integers 0/1, JSON is text — the same on SQLite and PostgreSQL.
 */
export type UsersTable = {
  id: Generated<number>;
  email: string;
  password_hash: string | null;
  name: string | null;
  role: number;
  account_kind: number;
  is_leader: number;
  agreed_terms: number;
  phone: string | null;
  company_name: string | null;
  store_name: string | null;
  logo_url: string | null;
  agent_code: string | null;
  trial_ends_at: string | null;
  payment_fail: number;
  agency_id: number | null;
  status: number;
  created_at: string;
  updated_at: string;
};

export type SessionsTable = {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  replaced_by: number | null;
  user_agent: string | null;
  ip: string | null;
};

export type PasswordResetsTable = {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
};

/** Failed sign-ins per e-mail address (ADR 0065). */
export type LoginThrottleTable = {
  email: string;
  failures: number;
  last_failed_at: string;
  locked_until: string | null;
  notified: Generated<number>;
};

/** A new login address waiting for its confirmation link (ADR 0065). */
export type EmailChangesTable = {
  id: Generated<number>;
  user_id: number;
  new_email: string;
  token_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
};

export type RegistrationRequestsTable = {
  id: Generated<number>;
  full_name: string;
  company_name: string;
  store_name: string;
  email: string;
  phone: string | null;
  knowledge: string | null;
  agent_code: string;
  client_company_name: string | null;
  agency_name: string | null;
  register_type: number;
  user_id: number | null;
  created_at: string;
};

export type RegistrationTokensTable = {
  id: Generated<number>;
  request_id: number;
  email: string;
  token_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
};

export type AgencyDomainsTable = {
  id: Generated<number>;
  agency_id: number;
  prefix: string;
  title: string;
  favicon_url: string | null;
  created_at: string;
};

export type StoreGroupsTable = {
  id: Generated<number>;
  agency_id: number;
  name: string;
  leader_id: number | null;
  created_at: string;
  updated_at: string;
};

export type GroupMembersTable = {
  group_id: number;
  user_id: number;
};

export type PublisherConnectionsTable = {
  id: Generated<number>;
  user_id: number;
  publisher_key: string;
  status: number;
  entity_id: string | null;
  location_name: string | null;
  postal_code: string | null;
  address_lines: string | null;
  store_code: string | null;
  log: string;
  created_at: string;
  updated_at: string;
};

/** Provider tokens of a store's channel; token columns hold sealed values (lib/tokens.ts). */
export type ChannelCredentialsTable = {
  id: Generated<number>;
  user_id: number;
  publisher_key: string;
  access_token: string;
  refresh_token: string | null;
  expires_at: string | null;
  scope: string | null;
  provider_user_id: string | null;
  provider_account_id: string | null;
  page_id: string | null;
  page_token: string | null;
  ig_user_id: string | null;
  created_at: string;
  updated_at: string;
};

export type OAuthStatesTable = {
  id: Generated<number>;
  state_hash: string;
  user_id: number;
  actor_id: number;
  publisher_key: string;
  code_verifier: string;
  redirect_uri: string;
  /** Where the callback sends the browser: the origin the consent started on; null = PUBLIC_URL. */
  return_origin: string | null;
  created_at: string;
  expires_at: string;
};

/** Who may refresh a grant's tokens right now (ADR 0022). */
export type GrantRefreshLeasesTable = {
  grant_key: string;
  owner: string;
  expires_at: string;
};

export type JobsTable = {
  id: Generated<number>;
  queue: string;
  payload: string;
  status: string;
  attempts: number;
  max_attempts: number;
  run_at: string;
  locked_until: string | null;
  last_error: string | null;
  idempotency_key: string | null;
  owner: string | null;
  started_at: string | null;
  finished_at: string | null;
  created_at: string;
  updated_at: string;
};

export type JobSchedulesTable = {
  name: string;
  queue: string;
  cron: string;
  payload: string;
  next_run_at: string;
  created_at: string;
  updated_at: string;
};

export type JobRateEventsTable = {
  id: Generated<number>;
  key: string;
  at: string;
};

/** One store's post of a submission (ADR 0026). */
export type PostsTable = {
  id: Generated<number>;
  submission_id: string;
  store_id: number;
  author_id: number;
  content: string;
  button_type: number;
  button_link: string | null;
  phone_number: string | null;
  /** JSON list of publisher keys. */
  channels: string;
  publish_at: string;
  delete_at: string | null;
  created_at: string;
  updated_at: string;
  /** ADR 0030: news | event | offer (migration 0007). */
  post_type: Generated<'news' | 'event' | 'offer'>;
  /** JSON StoredTopic, null for a plain post. */
  topic: string | null;
};

export type PostMediaTable = {
  id: Generated<number>;
  post_id: number;
  position: number;
  storage_key: string;
  kind: string;
  mime: string;
  bytes: number;
  width: number | null;
  height: number | null;
  duration_ms: number | null;
  created_at: string;
};

export type PostTargetState =
  | 'awaiting_approval'
  | 'not_approved'
  | 'scheduled'
  | 'publishing'
  | 'published'
  | 'failed'
  | 'unknown'
  | 'removing'
  | 'removed';

/** One store × channel of a post: what is delivered, retried and shown (ADR 0026). */
export type PostTargetsTable = {
  id: Generated<number>;
  post_id: number;
  store_id: number;
  publisher_key: string;
  state: PostTargetState;
  idempotency_key: string;
  external_id: string | null;
  external_url: string | null;
  error_kind: string | null;
  /** JSON list of Japanese lines. */
  error_lines: string;
  attempts: number;
  retries: number;
  sent_at: string | null;
  published_at: string | null;
  remove_at: string | null;
  removed_at: string | null;
  created_at: string;
  updated_at: string;
  /** JSON list of the target's provider posts (TargetPart, posts.parts.ts); null until sent. */
  parts: string | null;
  /** The provider account the limits count by (`<channel>:<entity id>`); null: the store. */
  account: string | null;
};

/** Ten daily metrics as columns (spec 3 §3 names; `METRIC_FIELDS` in domain). */
export type MetricColumns = {
  business_impressions_desktop_maps: number;
  business_impressions_mobile_maps: number;
  business_impressions_desktop_search: number;
  business_impressions_mobile_search: number;
  business_bookings: number;
  business_conversations: number;
  business_direction_requests: number;
  business_food_orders: number;
  call_clicks: number;
  website_clicks: number;
};

/** One store's Tokyo day of Google metrics (migration 0009). */
export type MetricDaysTable = MetricColumns & {
  store_id: number;
  /** YYYY-MM-DD, Tokyo. */
  day: string;
  fetched_at: string;
};

/** A store's month: the sums of its `metric_days` rows, and the month's keyword impressions. */
export type MetricMonthsTable = MetricColumns & {
  store_id: number;
  /** YYYY-MM. */
  month: string;
  search_keywords: number;
  days: number;
  updated_at: string;
} & RunningTotals;

/**
 * `cum_<field>`: the sum of `<field>` over the store's months up to and including this one
 * (migration 0010, ADR 0038). Kept by the metrics sync; 64-bit, so PostgreSQL answers strings.
 */
export type RunningTotals = {
  [K in keyof MetricColumns | 'search_keywords' as `cum_${K}`]: Generated<number | string>;
};

/** A search keyword's monthly count: `value` exact, or `threshold` (fewer than N). */
export type MetricKeywordsTable = {
  store_id: number;
  month: string;
  keyword: string;
  value: number | null;
  threshold: number | null;
  fetched_at: string;
};

export type MetricSyncState = 'idle' | 'running' | 'done' | 'error';

/** What the metrics sync has done for a store. */
export type MetricSyncsTable = {
  store_id: number;
  location_id: string | null;
  state: MetricSyncState;
  first_day: string | null;
  last_day: string | null;
  keywords_final_month: string | null;
  backfilled_at: string | null;
  synced_at: string | null;
  error: string | null;
  updated_at: string;
};

export type StoreProfilesTable = {
  store_id: number;
  location_id: string;
  /** JSON text of each section (spec 2 §3 shapes). */
  core: string;
  details: string;
  contacts: string;
  pulled_at: string | null;
  send_lease: string | null;
  send_lease_until: string | null;
  updated_at: string;
  /** JSON text: Google's own version where it differs from the copy (ADR 0061); null: none. */
  google_version?: string | null;
};

export type LocationEditStatus = 'queued' | 'sent' | 'refused';

export type LocationEditsTable = {
  id: Generated<number>;
  store_id: number;
  location_id: string;
  section: 'core' | 'details' | 'contacts';
  update_mask: string;
  patch: string;
  status: LocationEditStatus;
  attempts: Generated<number>;
  error: string | null;
  created_at: string;
  sent_at: string | null;
};

/** A store's knowledge tag (ADR 0045): its keys, analytics option, template and sightings. */
export type KnowledgeTagsTable = {
  store_id: number;
  api_key: string;
  app_key: string;
  analytics_option: number | null;
  template: string | null;
  first_seen_at: string | null;
  last_seen_at: string | null;
  page_origin: string | null;
  embed_count: Generated<number>;
  view_count: Generated<number>;
  created_at: string;
  updated_at: string;
};
export type KnowledgeTagRow = Selectable<KnowledgeTagsTable>;

/** A photo of a store's library (ADR 0043). */
export type PhotosTable = {
  id: Generated<number>;
  store_id: number;
  media_format: 'PHOTO' | 'VIDEO';
  storage_key: string | null;
  mime: string | null;
  bytes: number | null;
  width: number | null;
  height: number | null;
  sync_state: 'synced' | 'sending' | 'failed' | 'local';
  sync_error: string | null;
  retryable: Generated<number>;
  attempts: Generated<number>;
  upload_ref: string | null;
  google_name: string | null;
  google_url: string | null;
  claimed_until: string | null;
  created_at: string;
  updated_at: string;
};

export type ProductCategoriesTable = {
  id: Generated<number>;
  store_id: number;
  name: string;
  created_at: string;
};

/** One product of a store's catalogue (migration 0015, ADR 0046); prices in integer yen. */
export type ProductsTable = {
  id: Generated<number>;
  store_id: number;
  category_id: number;
  name: string;
  description: string | null;
  price_range: number;
  price: number | null;
  min_price: number | null;
  max_price: number | null;
  button_type: number;
  button_link: string | null;
  /** JSON text: [{ key, width, height, mime, bytes }]. */
  photos: string;
  created_at: string;
  updated_at: string;
};

/** One recorded change (migration 0016, ADR 0047); before and after are JSON text. */
export type AuditLogTable = {
  id: Generated<number>;
  at: string;
  actor_id: number | null;
  actor_email: string | null;
  actor_role: number | null;
  store_id: number | null;
  agency_id: number | null;
  entity: string;
  entity_id: string | null;
  action: string;
  summary: string | null;
  before: string | null;
  after: string | null;
};

/** A Google review of a store (migration 0022); times are ISO instants as Google gives them. */
export type ReviewsTable = {
  id: Generated<number>;
  store_id: number;
  /** Google's name of the review (accounts/…/locations/…/reviews/…). */
  name: string;
  reviewer_name: string;
  reviewer_photo_url: string | null;
  is_anonymous: Generated<number>;
  star_rating: number;
  comment: string | null;
  /** JSON text: [{ thumbnail_url, video_url }]. */
  media: Generated<string>;
  created_at: string;
  updated_at: string;
  has_reply: Generated<number>;
  reply_comment: string | null;
  reply_updated_at: string | null;
  /**
   * When the review was first seen answered (migration 0028): kept when the reply is edited
   * later, so the time to reply is the first answer's, not the last edit's.
   */
  first_replied_at: ColumnType<string | null, string | null | undefined, string | null>;
  reply_state: string | null;
  reply_policy_violation: string | null;
  reply_url: string | null;
  first_seen_at: string;
  notified_at: string | null;
};

/** An agency's approval rule (migration 0025, ADR 0093). */
export type ApprovalSettingsTable = {
  agency_id: number;
  replies: number;
  /** Its stores' posts are held until approved (migration 0027, ADR 0095). */
  posts: Generated<number>;
  updated_at: string;
};

/** A reply template of a store or an agency, by star band (migration 0023, ADR 0091). */
export type ReplyTemplatesTable = {
  id: Generated<number>;
  owner_id: number;
  star_band: string;
  body: string;
  created_at: string;
  updated_at: string;
};

/** The template a store drew last for a star band (migration 0023). */
export type ReplyTemplateUsesTable = {
  store_id: number;
  star_band: string;
  template_key: string;
  used_at: string;
};

/** A request for approval of a reply (migration 0025, ADR 0093). */
export type ReplyApprovalsTable = {
  id: Generated<number>;
  review_id: number;
  store_id: number;
  state: string;
  comment: string;
  override: number;
  author_id: number | null;
  author_email: string;
  decided_by: number | null;
  decided_by_email: string | null;
  decided_at: string | null;
  note: string | null;
  created_at: string;
  updated_at: string;
  expires_at: string;
  sent_at: string | null;
};

/** A request for approval of a post (migration 0027, ADR 0095). */
export type PostApprovalsTable = {
  id: Generated<number>;
  post_id: number;
  store_id: number;
  state: string;
  author_id: number | null;
  author_email: string;
  decided_by: number | null;
  decided_by_email: string | null;
  decided_at: string | null;
  note: string | null;
  created_at: string;
  updated_at: string;
  expires_at: string;
};

/** An in-app notice of one user (migration 0026, ADR 0094). */
export type NoticesTable = {
  id: Generated<number>;
  user_id: number;
  kind: string;
  store_id: number | null;
  title: string;
  body: string;
  link: string;
  key: string;
  created_at: string;
  read_at: string | null;
};

/** How a user hears of new reviews (migration 0026). */
export type NoticeSettingsTable = {
  user_id: number;
  review_mail: string;
  digest_until: string | null;
  updated_at: string;
};

/** How many reviews Tenpo holds per store, kept by triggers on `reviews` (migration 0024). */
export type ReviewCountsTable = {
  store_id: number;
  n: number;
};

export type ReviewSyncsTable = {
  store_id: number;
  location_id: string | null;
  state: MetricSyncState;
  error: string | null;
  /** The newest review `updateTime` held: the next run reads pages back to it. */
  newest_update: string | null;
  average_rating: number | null;
  total_review_count: number | null;
  first_synced_at: string | null;
  synced_at: string | null;
  updated_at: string;
};

/** A store's payment settings and billing calendar (ADR 0050). Days are Tokyo YYYY-MM-DD. */
export type PaymentAccountsTable = {
  user_id: number;
  method: string | null;
  plan: number | null;
  next_plan: number | null;
  cust_code: string | null;
  card_brand: string | null;
  card_masked: string | null;
  card_expiry: string | null;
  paid_through: string | null;
  next_billing_on: string | null;
  billing_day: number | null;
  created_at: string;
  updated_at: string;
};

export type ChargeState = 'pending' | 'processing' | 'paid' | 'failed';
export type ChargeKind = 'purchase' | 'billing';

/** One attempt to charge one period (ADR 0050). */
export type PaymentChargesTable = {
  id: Generated<number>;
  user_id: number;
  period: string;
  attempt: number;
  order_id: string;
  kind: ChargeKind;
  plan: number;
  amount: number;
  state: ChargeState;
  lease_until: string | null;
  lease_owner: string | null;
  sps_transaction_id: string | null;
  tracking_id: string | null;
  /** The commit's `res_process_date` (ST02-00101), for a sale resumed later (ADR 0058). */
  commit_process_date: string | null;
  error_code: string | null;
  origin: string | null;
  created_at: string;
  updated_at: string;
  settled_at: string | null;
};

export type NotificationVerdict = 'accepted' | 'tampered' | 'unknown' | 'replay';

/** Every SBPS result notification (A02-1) received, with what Tenpo made of it. */
export type PaymentNotificationsTable = {
  id: Generated<number>;
  received_at: string;
  order_id: string | null;
  verdict: NotificationVerdict;
  reason: string | null;
  res_result: string | null;
  hash: string | null;
  fields: string;
};

export type Database = {
  users: UsersTable;
  sessions: SessionsTable;
  password_resets: PasswordResetsTable;
  login_throttle: LoginThrottleTable;
  email_changes: EmailChangesTable;
  registration_requests: RegistrationRequestsTable;
  registration_tokens: RegistrationTokensTable;
  agency_domains: AgencyDomainsTable;
  store_groups: StoreGroupsTable;
  group_members: GroupMembersTable;
  publisher_connections: PublisherConnectionsTable;
  channel_credentials: ChannelCredentialsTable;
  oauth_states: OAuthStatesTable;
  grant_refresh_leases: GrantRefreshLeasesTable;
  jobs: JobsTable;
  job_schedules: JobSchedulesTable;
  job_rate_events: JobRateEventsTable;
  posts: PostsTable;
  post_media: PostMediaTable;
  post_targets: PostTargetsTable;
  metric_days: MetricDaysTable;
  metric_months: MetricMonthsTable;
  metric_keywords: MetricKeywordsTable;
  metric_syncs: MetricSyncsTable;
  store_profiles: StoreProfilesTable;
  location_edits: LocationEditsTable;

  knowledge_tags: KnowledgeTagsTable;

  photos: PhotosTable;
  product_categories: ProductCategoriesTable;
  products: ProductsTable;
  audit_log: AuditLogTable;
  reviews: ReviewsTable;
  review_syncs: ReviewSyncsTable;
  review_counts: ReviewCountsTable;
  approval_settings: ApprovalSettingsTable;
  reply_approvals: ReplyApprovalsTable;
  post_approvals: PostApprovalsTable;
  reply_templates: ReplyTemplatesTable;
  reply_template_uses: ReplyTemplateUsesTable;
  notices: NoticesTable;
  notice_settings: NoticeSettingsTable;
  payment_accounts: PaymentAccountsTable;
  payment_charges: PaymentChargesTable;
  payment_notifications: PaymentNotificationsTable;
};

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type JobRow = Selectable<JobsTable>;
export type PublisherConnectionRow = Selectable<PublisherConnectionsTable>;
export type ChannelCredentialsRow = Selectable<ChannelCredentialsTable>;
export type OAuthStateRow = Selectable<OAuthStatesTable>;
export type PostRow = Selectable<PostsTable>;
export type PostMediaRow = Selectable<PostMediaTable>;
export type PostTargetRow = Selectable<PostTargetsTable>;
export type PhotoRow = Selectable<PhotosTable>;
export type ProductRow = Selectable<ProductsTable>;
export type AuditLogRow = Selectable<AuditLogTable>;
export type PaymentAccountRow = Selectable<PaymentAccountsTable>;
export type PaymentChargeRow = Selectable<PaymentChargesTable>;
