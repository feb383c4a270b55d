import { linkOriginOf } from './lib/hosts';
import { randomUUID } from 'node:crypto';
import Fastify, {
  type FastifyInstance,
  type FastifyServerOptions,
  type RouteOptions,
} from 'fastify';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { ja } from '@tenpo/domain';
import { createChannels, type ChannelSet } from './channels';
import type { Config } from './config';
import type { DbHandle } from './db/kysely';
import { createQueue, type Queue } from './jobs/queue';
import { systemClock, type Clock } from './lib/clock';
import { AppError } from './lib/errors';
import { loggerOptions } from './lib/log-redact';
import { serializerCompiler } from './lib/serializer';
import { acceptMultipartUnread, createUploadBudget } from './lib/uploads';
import { createOutbox, registerMailJobs } from './mail/mail.jobs';
import type { MailTransport } from './mail/mailer';
import { createAccountRepo } from './modules/account/account.repo';
import { registerAccountRoutes } from './modules/account/account.routes';
import { createEmailChangeService } from './modules/account/email-change.service';
import { createAuthRepo } from './modules/auth/auth.repo';
import { registerAuthRoutes } from './modules/auth/auth.routes';
import { createAuthService } from './modules/auth/auth.service';
import { createEntityService } from './modules/entity/entity.service';
import { registerEntityRoutes } from './modules/entity/entity.routes';
import { registerStoreLookupRoutes } from './modules/store-lookups/store-lookups.routes';
import { createStoreLookupsService } from './modules/store-lookups/store-lookups.service';
import { createKnowledgeTagRepo } from './modules/knowledge-tag/knowledge-tag.repo';
import { registerKnowledgeTagRoutes } from './modules/knowledge-tag/knowledge-tag.routes';
import { createKnowledgeTagService } from './modules/knowledge-tag/knowledge-tag.service';
import { createFacebookPagesService } from './modules/publisher/facebook-pages.service';
import { createPublisherRepo } from './modules/publisher/publisher.repo';
import { registerPublisherRoutes } from './modules/publisher/publisher.routes';
import { createPublisherService } from './modules/publisher/publisher.service';
import { createAuditLog } from './modules/audit/audit.repo';
import { createAdminRepo } from './modules/admin/admin.repo';
import { registerAdminRoutes } from './modules/admin/admin.routes';
import { createAdminService } from './modules/admin/admin.service';
import { registerAuditRoutes } from './modules/audit/audit.routes';
import { createDomainsRepo } from './modules/domains/domains.repo';
import { registerDomainRoutes } from './modules/domains/domains.routes';
import { registerMetricsJobs, type MetricsJobs } from './modules/metrics/metrics.jobs';
import { createMetricsRepo } from './modules/metrics/metrics.repo';
import { createMetricsSync, type MetricsSync } from './modules/metrics/metrics.sync';
import { registerPostJobs } from './modules/posts/posts.jobs';
import { registerPaymentJobs, type PaymentJobs } from './modules/payments/payments.jobs';
import { createPaymentsRepo } from './modules/payments/payments.repo';
import { registerPaymentRoutes, SBPS_OPEN_PATHS } from './modules/payments/payments.routes';
import { createPaymentsService, type PaymentsService } from './modules/payments/payments.service';
import { createSbpsClient, type SbpsClient } from './modules/payments/sbps.client';
import { createTdsClient } from './modules/payments/tds';
import { createPhotosRepo } from './modules/photos/photos.repo';
import { registerReviewsJobs, type ReviewsJobs } from './modules/reviews/reviews.jobs';
import { createApprovalsRepo } from './modules/reviews/approvals.repo';
import { registerApprovalRoutes } from './modules/reviews/approvals.routes';
import { createApprovalsService, type ApprovalsService } from './modules/reviews/approvals.service';
import { createNoticesRepo } from './modules/notices/notices.repo';
import { registerNoticeRoutes } from './modules/notices/notices.routes';
import { createNoticesService, type NoticesService } from './modules/notices/notices.service';
import { createReviewsRepo } from './modules/reviews/reviews.repo';
import { createReviewKit, registerReviewKitRoute } from './modules/reviews/reviews.kit';
import { createSpikeCheck } from './modules/reviews/reviews.spikes';
import { createSpikesRepo } from './modules/reviews/spikes.repo';
import { registerReviewRoutes } from './modules/reviews/reviews.routes';
import { createReviewsService } from './modules/reviews/reviews.service';
import { createDraftsRepo } from './modules/reviews/reviews.drafts.repo';
import { createDraftsService } from './modules/reviews/reviews.drafts';
import { registerReplyDraftRoutes } from './modules/reviews/reviews.drafts.routes';
import { createLlmClient, type LlmClient } from './llm/llm.client';
import { createReviewsSync, type ReviewsSync } from './modules/reviews/reviews.sync';
import { registerPhotoRoutes } from './modules/photos/photos.routes';
import { createPhotosService } from './modules/photos/photos.service';
import { createPostsRepo } from './modules/posts/posts.repo';
import { registerPostRoutes } from './modules/posts/posts.routes';
import { createProductsRepo } from './modules/products/products.repo';
import { registerProductRoutes } from './modules/products/products.routes';
import { createProductsService, type ProductsService } from './modules/products/products.service';
import { createReportsRepo } from './modules/reports/reports.repo';
import { registerReportRoutes } from './modules/reports/reports.routes';
import { createReportsService } from './modules/reports/reports.service';
import { createPostsService } from './modules/posts/posts.service';
import { createPostApprovals, type PostApprovals } from './modules/posts/posts.approvals';
import { createPostApprovalsRepo } from './modules/posts/posts.approvals.repo';
import { registerPostApprovalRoutes } from './modules/posts/posts.approvals.routes';
import { createRegistrationRepo } from './modules/registration/registration.repo';
import { registerRegistrationRoutes } from './modules/registration/registration.routes';
import { createRegistrationService } from './modules/registration/registration.service';
import { registerStoreInfoJobs } from './modules/store-info/store-info.jobs';
import { createStoreInfoRepo } from './modules/store-info/store-info.repo';
import { registerStoreInfoRoutes } from './modules/store-info/store-info.routes';
import {
  createStoreInfoService,
  type StoreInfoService,
} from './modules/store-info/store-info.service';
import { createGroupsRepo } from './modules/groups/groups.repo';
import { registerGroupRoutes } from './modules/groups/groups.routes';
import { createGroupsService } from './modules/groups/groups.service';
import { createStoreAccess, type StoreAccess } from './modules/stores/access';
import { createStoresRepo } from './modules/stores/stores.repo';
import { registerStoreRoutes } from './modules/stores/stores.routes';
import { createUsersRepo } from './modules/users/users.repo';
import { createUsersService } from './modules/users/users.service';
import { registerApiKey } from './plugins/api-key';
import { createAuthenticate, registerAuthDecorator } from './plugins/auth';
import {
  clientErrorResponse,
  frameworkErrors,
  registerErrorHandler,
} from './plugins/error-handler';
import { createReadiness, registerHealth, registerProbes, type Readiness } from './plugins/health';
import { registerMetricsRoute, registerRequestMetrics } from './lib/metrics';
import { PUBLISHER_ICONS_DIR } from './assets';
import { registerOpenApi } from './plugins/openapi';
import {
  paymentOriginsOf,
  registerSecurityHeaders,
  securityHeadersFor,
  providerImageOrigins,
} from './plugins/security-headers';
import {
  createMediaStorage,
  createUrlSigner,
  registerMediaRoutes,
  type MediaStorage,
} from './storage';

export type AppDeps = {
  database: DbHandle;
  mail: MailTransport;
  clock?: Clock;
  /** The channel clients; built from config.channels when not given. */
  channels?: ChannelSet;
  /** Where media go; built from config.storage when not given. */
  storage?: MediaStorage;
  /** The SBPS client; built from config.payments.sbps when not given. */
  sbps?: SbpsClient;
  /** The language model's client (ADR 0091); built from config.llm when not given. */
  llm?: LlmClient | null;
  /** Mounted after the API by the composition root: the sandbox and the web app. */
  mount?: (app: FastifyInstance) => Promise<void>;
  logger?: FastifyServerOptions['logger'];
  /** Where the app's own logger writes (a test reads it); default: standard output. */
  logStream?: { write: (line: string) => void };
};

declare module 'fastify' {
  interface FastifyInstance {
    queue: Queue;
    storeAccess: StoreAccess;
    storage: MediaStorage;
    /** The Google metrics sync (ADR 0035): `jobs.start()` where jobs run, `sync` for one store. */
    metrics: { sync: MetricsSync; jobs: MetricsJobs };
    /** The store's information and its edits on their way to Google (ADR 0041). */
    storeInfo: StoreInfoService;
    /** The store's product catalogue (ADR 0046): the knowledge tag's offers read `all`. */
    products: ProductsService;
    /** Plans, cards and billing (ADR 0050): `jobs.start()` where jobs run. */
    payments: { service: PaymentsService; jobs: PaymentJobs };
    /** The Google reviews sync (ADR 0090): `jobs.start()` where jobs run. */
    reviews: {
      jobs: ReviewsJobs;
      sync: ReviewsSync;
      approvals: ApprovalsService;
      notices: NoticesService;
    };
    /** Approval of posts (ADR 0095): `sweep` runs in each reviews round. */
    postApprovals: PostApprovals;
    /** GET /api/health/ready's answer; server.ts turns it unready on SIGTERM (ADR 0052). */
    readiness: Readiness;
    /** Every route as it was declared, with its `config.access` (ADR 0068). */
    routeTable: readonly RouteOptions[];
  }
}

/** A number is a count of proxy hops: Fastify takes it at run time, but its types want a function. */
const trustProxyOption = (t: Config['trustProxy']) =>
  typeof t === 'number' ? (_addr: string, hop: number) => hop < t : t;

/** Fastify itself: logger, request ids, compilers, the route table, metrics, errors and auth. */
function createFastify(config: Config, deps: AppDeps): FastifyInstance {
  const logger: FastifyServerOptions['logger'] =
    deps.logger ??
    (deps.logStream
      ? { ...loggerOptions(config.logLevel), stream: deps.logStream }
      : loggerOptions(config.logLevel));
  const app = Fastify({
    logger,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
    },
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: 1024 * 1024,
    clientErrorHandler: (err, socket) => {
      if ((err as { code?: string }).code === 'ECONNRESET' || socket.destroyed) return;
      if (socket.writable) socket.write(clientErrorResponse(err as { code?: string }));
      socket.destroy(err);
    },
    frameworkErrors,
  });
  // Every route as declared, for the route-table tests (ADR 0068).
  const routeTable: RouteOptions[] = [];
  app.addHook('onRoute', (route) => {
    routeTable.push(route);
  });
  app.decorate('routeTable', routeTable);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // The first onRequest hook, so every response that runs the hooks carries it: successes,
  // errors, 404s and a refused API key alike. Set here rather than in onSend: one hook less
  // per response (ADR 0029).
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id);
    done();
  });
  // Probes and metrics (ADR 0052): the request hook only where metrics are served.
  if (config.ops.metricsPort !== null || config.ops.metricsToken !== null)
    registerRequestMetrics(app);
  if (config.ops.metricsToken !== null) registerMetricsRoute(app, config.ops.metricsToken);
  registerErrorHandler(app);
  registerAuthDecorator(app);
  return app;
}

/** Security headers, rate limits and the uploads' bookkeeping. */
async function registerPlugins(app: FastifyInstance, config: Config): Promise<void> {
  await registerSecurityHeaders(
    app,
    securityHeadersFor(
      config.map,
      paymentOriginsOf(config.publicUrl, config.payments.sbps),
      providerImageOrigins(config),
    ),
  );
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_req, ctx) => {
      const err = new AppError(429, 'rate_limited', ja.tooManyRequests);
      return Object.assign(err, { retryAfter: ctx.after });
    },
  });
  // @fastify/multipart itself is registered with the upload routes only (registerUploadRoutes).
  acceptMultipartUnread(app);
  app.decorate('uploadBudget', createUploadBudget(config.uploadsInFlight));
}

/** The queue, mail, users, the audit log, sign-in and registration, wired by hand. */
async function createAccountServices(
  app: FastifyInstance,
  config: Config,
  deps: AppDeps,
  clock: Clock,
) {
  const { db } = deps.database;
  const queue = await createQueue(deps.database, clock, config.jobs.driver, {
    log: app.log,
    pollMs: config.jobs.pollMs,
    leaseMs: config.jobs.leaseMs,
  });
  registerMailJobs(queue, deps.mail);
  const outbox = createOutbox(queue, config.mailFrom);
  const usersRepo = createUsersRepo(db);
  const users = createUsersService(usersRepo, clock);
  const domains = createDomainsRepo(db);
  // Every change to a store, a group, an account, a connection or a post (ADR 0047).
  const audit = createAuditLog(db, clock);
  const isAgencyPrefix = async (prefix: string) =>
    ((await domains.byPrefix(prefix))?.status ?? 0) !== 0;
  const linkOrigin = linkOriginOf(config.publicUrl, isAgencyPrefix);
  const authRepo = createAuthRepo(db);
  const access = createStoreAccess(usersRepo);
  const authenticate = createAuthenticate(authRepo, clock);
  const authenticateRotation = createAuthenticate(authRepo, clock, { followRotation: true });
  const auth = createAuthService({
    repo: authRepo,
    users,
    clock,
    outbox,
    linkOrigin,
    sessionTtlHours: config.sessionTtlHours,
    audit,
  });
  const registration = createRegistrationService({
    repo: createRegistrationRepo(db),
    users: usersRepo,
    clock,
    outbox,
    linkOrigin,
    audit,
  });
  return {
    queue,
    outbox,
    usersRepo,
    users,
    domains,
    audit,
    isAgencyPrefix,
    linkOrigin,
    access,
    authenticate,
    authenticateRotation,
    auth,
    registration,
  };
}

type AccountServices = Awaited<ReturnType<typeof createAccountServices>>;

/** The channels and the store modules that use them, and payments, wired by hand. */
function createStoreServices(
  app: FastifyInstance,
  config: Config,
  deps: AppDeps,
  clock: Clock,
  storage: MediaStorage,
  { queue, outbox, audit, isAgencyPrefix }: AccountServices,
) {
  const { db } = deps.database;
  const channels = deps.channels ?? createChannels(config, clock);
  const publishers = createPublisherService({
    repo: createPublisherRepo(db),
    channels,
    clock,
    secretKey: config.secretKey,
    publicUrl: config.publicUrl,
    isAgencyPrefix,
    log: app.log,
    audit,
  });
  const metricsRepo = createMetricsRepo(db);
  const metricsSync = createMetricsSync({
    repo: metricsRepo,
    registry: publishers.registry,
    clock,
    log: app.log,
  });
  const metricsJobs = registerMetricsJobs(queue, {
    sync: metricsSync,
    repo: metricsRepo,
    clock,
    syncHour: config.metricsSyncHour,
  });
  const reviewsRepo = createReviewsRepo(db);
  // In-app notices and each user's review mail choice (issue 25 item 2, ADR 0094).
  const notices = createNoticesService({
    repo: createNoticesRepo(db),
    outbox,
    clock,
    publicUrl: config.publicUrl,
  });
  const reviewsSync = createReviewsSync({
    repo: reviewsRepo,
    registry: publishers.registry,
    clock,
    notices,
    spikes: createSpikeCheck({
      repo: createSpikesRepo(db),
      clock,
      notices,
      publicUrl: config.publicUrl,
    }),
    publicUrl: config.publicUrl,
    log: app.log,
  });
  const approvalsRepo = createApprovalsRepo(db);
  const reviewsService = createReviewsService({
    repo: reviewsRepo,
    registry: publishers.registry,
    audit,
    approvals: approvalsRepo,
    // A store's category picks the rule sets: its listing is read once if Tenpo has no copy.
    readListing: (store) => storeInfo.information(store),
  });
  // Approval of replies (issue 25 item 6, ADR 0093): swept each reviews round.
  const approvals = createApprovalsService({
    repo: approvalsRepo,
    reviews: reviewsService,
    storeById: createUsersRepo(db).findById,
    notices,
    clock,
    publicUrl: config.publicUrl,
    audit,
    log: app.log,
  });
  const reviews = {
    service: reviewsService,
    approvals,
    // Reply templates and drafts (issue 25 item 4, ADR 0091): never sent by themselves.
    drafts: createDraftsService({
      repo: createDraftsRepo(db),
      reviews: reviewsService,
      llm:
        deps.llm !== undefined
          ? deps.llm
          : config.llm && createLlmClient(config.llm, { log: app.log }),
      clock,
    }),
    sync: reviewsSync,
    jobs: registerReviewsJobs(queue, {
      sync: reviewsSync,
      repo: reviewsRepo,
      clock,
      minutes: config.reviewsSyncMinutes,
      // Replies' and posts' requests past their expiry (ADR 0093, 0095).
      sweep: async () => ({ replies: await approvals.sweep(), posts: await postApprovals.sweep() }),
      digest: notices.digest,
    }),
    notices,
    kit: createReviewKit({ repo: reviewsRepo, registry: publishers.registry }),
  };
  const storeInfo = createStoreInfoService({
    repo: createStoreInfoRepo(db),
    registry: publishers.registry,
    queue,
    clock,
    log: app.log,
    notConnected: () => publishers.notConnected('google_my_business'),
    audit,
  });
  registerStoreInfoJobs(queue, { storeInfo });
  const entity = createEntityService({
    publishers,
    storeInfo,
    onGoogleConnected: async (storeId) => {
      await metricsJobs.connected(storeId);
      await reviews.jobs.now(storeId);
    },
    audit,
  });
  const postsRepo = createPostsRepo(db);
  registerPostJobs(queue, { repo: postsRepo, registry: publishers.registry, storage, clock });
  // Approval of posts (ADR 0095): the agency's rule holds its stores' posts until approved.
  const postApprovals = createPostApprovals({
    repo: createPostApprovalsRepo(db),
    rules: approvalsRepo,
    queue,
    notices,
    storeById: createUsersRepo(db).findById,
    onePost: (id, storeIds) => posts.one(id, storeIds),
    storage,
    clock,
    publicUrl: config.publicUrl,
    audit,
  });
  const posts = createPostsService({
    approvals: postApprovals,
    repo: postsRepo,
    publishers,
    registry: publishers.registry,
    queue,
    storage,
    clock,
    publicUrl: config.publicUrl,
    audit,
  });
  const photos = createPhotosService({
    repo: createPhotosRepo(db),
    publishers,
    registry: publishers.registry,
    storage,
    clock,
    log: app.log,
  });
  const facebookPages = createFacebookPagesService({ publishers, audit });
  const products = createProductsService({ repo: createProductsRepo(db), storage, clock });
  const payments = createPaymentsService({
    repo: createPaymentsRepo(db),
    sbps: deps.sbps ?? createSbpsClient(config.payments.sbps, clock),
    queue,
    outbox,
    audit,
    clock,
    config: config.payments,
    publicUrl: config.publicUrl,
    log: app.log,
  });
  const paymentJobs = registerPaymentJobs(queue, {
    payments,
    billingHour: config.payments.billingHour,
  });
  return {
    publishers,
    metricsSync,
    metricsJobs,
    storeInfo,
    entity,
    posts,
    postApprovals,
    photos,
    facebookPages,
    products,
    payments,
    paymentJobs,
    reviews,
  };
}

type StoreServices = ReturnType<typeof createStoreServices>;

/** Every /api route: the API key first, then the docs, the probes and each module's routes. */
async function registerApi(
  api: FastifyInstance,
  config: Config,
  deps: AppDeps,
  clock: Clock,
  storage: MediaStorage,
  readiness: Readiness,
  s: AccountServices & StoreServices,
): Promise<void> {
  const { db, dialect } = deps.database;
  const {
    queue,
    outbox,
    usersRepo,
    users,
    domains,
    audit,
    linkOrigin,
    access,
    authenticate,
    authenticateRotation,
    auth,
    registration,
    publishers,
    storeInfo,
    entity,
    posts,
    photos,
    facebookPages,
    products,
    payments,
  } = s;
  const authRateLimit = { max: config.rateLimitAuthPerMinute, timeWindow: 60_000 };
  // Exempt: health, docs, the OAuth returns a provider's redirect opens in the browser, and
  // the knowledge tag's script and beacon, which a shop's page loads (ADR 0045), and SBPS's
  // notification and the browser's return from its hosted page (ADR 0050).
  registerApiKey(
    api,
    config.apiKey,
    (url) =>
      /^\/api\/(health|docs|publisher\/callback|knowledge-tag\/(embed|view))(\/|\?|$)/.test(url) ||
      SBPS_OPEN_PATHS.test(url),
  );
  await registerOpenApi(api);
  registerHealth(api, { db, dialect, queue, workerExpected: config.runWorker });
  registerProbes(api, readiness);
  registerAuthRoutes(api, { auth, authenticate, authenticateRotation, authRateLimit });
  registerRegistrationRoutes(api, { registration, authRateLimit });
  registerAccountRoutes(api, {
    users,
    audit,
    emailChange: createEmailChangeService({
      repo: createAccountRepo(db),
      users: usersRepo,
      clock,
      outbox,
      linkOrigin,
      audit,
      checkCurrentPassword: (user, password) => auth.checkCurrentPassword(user, password),
    }),
    access,
    clock,
    storage,
    authenticate,
    authRateLimit,
  });
  registerStoreRoutes(api, {
    stores: createStoresRepo(db),
    users,
    access,
    clock,
    authenticate,
  });
  // Agency groups and the manager's /admin/groups (issue 12, ADR 0048).
  registerGroupRoutes(api, {
    groups: createGroupsService({ repo: createGroupsRepo(db, dialect), audit, clock }),
    authenticate,
  });
  registerDomainRoutes(api, { domains });
  // The manager's admin: agencies, customers and stores (issue 12, ADR 0049).
  registerAdminRoutes(api, {
    admin: createAdminService({ repo: createAdminRepo(db), audit, clock }),
    storage,
    authenticate,
  });
  registerPublisherRoutes(api, { publishers, facebookPages, entity, access, authenticate });
  registerEntityRoutes(api, { entity, access, authenticate });
  registerStoreInfoRoutes(api, { storeInfo, access, authenticate });
  registerStoreLookupRoutes(api, {
    lookups: createStoreLookupsService({ publishers, clock }),
    access,
    authenticate,
  });
  registerKnowledgeTagRoutes(api, {
    knowledgeTag: createKnowledgeTagService({
      repo: createKnowledgeTagRepo(db),
      entity,
      publishers,
      findStore: (id) => usersRepo.findById(id),
      websiteOf: (id) => storeInfo.websiteOf(id),
      extras: async (storeId) => ({
        photos: (await photos.publicPhotoUrls(storeId)).slice(0, 10),
        offers: (await products.all(storeId)).map((p) => ({
          name: p.productName,
          description: p.productDescription,
          minimumPrice: p.minimumPrice,
          maximumPrice: p.maximumPrice,
          url: p.linkForButton,
        })),
      }),
      clock,
      audit,
    }),
    access,
    authenticate,
  });
  registerPostRoutes(api, { posts, access, storage, clock, authenticate });
  registerPostApprovalRoutes(api, { approvals: s.postApprovals, access, authenticate });
  // The change history (issue 12, ADR 0047).
  registerAuditRoutes(api, { audit, access, authenticate });
  registerPhotoRoutes(api, { photos, access, storage, audit, authenticate });
  // Google reviews (issue 25, ADR 0090).
  registerReviewRoutes(api, { reviews: s.reviews.service, access, authenticate });
  registerApprovalRoutes(api, { approvals: s.reviews.approvals, access, authenticate });
  registerReplyDraftRoutes(api, { drafts: s.reviews.drafts, access, authenticate });
  registerNoticeRoutes(api, { notices: s.reviews.notices, authenticate });
  registerReviewKitRoute(api, { kit: s.reviews.kit, access, authenticate });
  registerProductRoutes(api, {
    products,
    access,
    storage,
    audit,
    authenticate,
  });
  // Plans, the card and the payment (issue 13, ADR 0050).
  registerPaymentRoutes(api, {
    payments,
    access,
    linkOrigin,
    authenticate,
    tds: {
      // The in-memory fake SBPS of the unit tests has no 3-D Secure (ADR 0059).
      client: deps.sbps ? null : createTdsClient(config.payments.sbps, clock),
      secret: config.secretKey,
      now: () => clock.now(),
    },
  });
  registerReportRoutes(api, {
    reports: createReportsService({ repo: createReportsRepo(deps.database), clock }),
    access,
    clock,
    secretKey: config.secretKey,
    publicUrl: config.publicUrl,
    authenticate,
  });
}

/** Builds the whole HTTP application; plugins first, then modules, registered by hand. */
export async function buildApp(config: Config, deps: AppDeps): Promise<FastifyInstance> {
  const clock = deps.clock ?? systemClock;
  const app = createFastify(config, deps);
  await registerPlugins(app, config);

  const storage = deps.storage ?? createMediaStorage(config);
  registerMediaRoutes(app, {
    storage,
    signer: createUrlSigner(config.secretKey),
    private: config.storage.private,
  });
  // The channels' icons that publisher rows point at (spec 1 §3: images/publisher on the API host).
  await app.register(fastifyStatic, {
    root: PUBLISHER_ICONS_DIR,
    prefix: '/images/publisher/',
    decorateReply: false,
    index: false,
    maxAge: '1d',
  });

  // Services, wired by hand.
  const accounts = await createAccountServices(app, config, deps, clock);
  const stores = createStoreServices(app, config, deps, clock, storage, accounts);
  const { queue, access } = accounts;
  const { metricsSync, metricsJobs, storeInfo, products, payments, paymentJobs } = stores;
  app.decorate('queue', queue);
  app.decorate('storage', storage);
  app.decorate('storeAccess', access);
  app.decorate('metrics', { sync: metricsSync, jobs: metricsJobs });
  app.decorate('storeInfo', storeInfo);
  app.decorate('products', products);
  app.decorate('payments', { service: payments, jobs: paymentJobs });
  app.decorate('postApprovals', stores.postApprovals);
  app.decorate('reviews', {
    jobs: stores.reviews.jobs,
    sync: stores.reviews.sync,
    approvals: stores.reviews.approvals,
    notices: stores.reviews.notices,
  });
  const readiness = createReadiness({ database: deps.database, log: app.log });
  app.decorate('readiness', readiness);

  await app.register(
    async (api) => {
      await registerApi(api, config, deps, clock, storage, readiness, { ...accounts, ...stores });
    },
    { prefix: '/api' },
  );

  if (deps.mount) await deps.mount(app);
  app.addHook('onClose', async () => {
    await queue.stop();
    await storage.close();
  });
  return app;
}
