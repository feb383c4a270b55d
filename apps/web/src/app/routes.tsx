import type { RouteObject } from 'react-router';
import { BlankLayout } from '../components/layout/blank-layout';
import { FullLoader } from '../components/ui/full-loader';
import { ja } from '../i18n/ja';
import { loadChunk } from '../lib/chunk';
import { PublicOnly } from './public-only';
import { Root } from './root';
import { RouteError } from './route-error';
import { MANAGER_ONLY, type RouteMeta } from './route-meta';
import { LoginRoute } from './routes/login';
import { NotFoundRoute } from './routes/not-found';

const meta = (m: RouteMeta) => ({ meta: m });

/** A lazily loaded screen (reported when it fails or takes longer than 120 s). */
const lazy =
  <K extends string>(load: () => Promise<Record<K, React.ComponentType>>, name: K) =>
  async () => {
    const m = await loadChunk(load);
    return { Component: m[name] };
  };

const guarded = { needsStores: true, paymentGate: true } as const;

export const routes: RouteObject[] = [
  {
    element: <Root />,
    errorElement: <RouteError />,
    // Shown while the first lazily loaded screen of a page load arrives.
    hydrateFallbackElement: <FullLoader />,
    children: [
      {
        element: <PublicOnly />,
        children: [
          {
            element: <BlankLayout />,
            children: [
              {
                path: '/login',
                element: <LoginRoute />,
                handle: meta({ name: 'Login', title: ja.routes.login }),
              },
              {
                path: '/forgot-password',
                lazy: lazy(() => import('./routes/forgot-password'), 'ForgotPasswordRoute'),
                handle: meta({ name: 'Forgot Password', title: ja.routes.forgotPassword }),
              },
              {
                path: '/reset-password',
                lazy: lazy(() => import('./routes/reset-password'), 'ResetPasswordRoute'),
                handle: meta({ name: 'Reset Password', title: ja.routes.resetPassword }),
              },
              {
                path: '/register-information',
                lazy: lazy(
                  () => import('./routes/register-information'),
                  'RegisterInformationRoute',
                ),
                handle: meta({
                  name: 'Register Information',
                  title: ja.routes.registerInformation,
                }),
              },
              {
                path: '/register-account',
                lazy: lazy(() => import('./routes/register-account'), 'RegisterAccountRoute'),
                handle: meta({ name: 'Register Account', title: ja.routes.registerAccount }),
              },
            ],
          },
        ],
      },
      // Spec 1 §2: the privacy policy needs no login, and opening it signed in leaves the
      // session alone (not PublicOnly: it neither sends anyone home nor logs anyone out).
      {
        path: '/facebook-terms-and-privacy',
        lazy: lazy(() => import('./routes/privacy-policy'), 'PrivacyPolicyRoute'),
        handle: meta({ name: 'Facebook Terms And Privacy', title: ja.routes.privacyPolicy }),
      },
      // The link mailed to a new login address (ADR 0065): signed in or not, so not PublicOnly.
      {
        element: <BlankLayout />,
        children: [
          {
            path: '/confirm-email',
            lazy: lazy(() => import('./routes/confirm-email'), 'ConfirmEmailRoute'),
            handle: meta({ name: 'Confirm Email', title: ja.routes.confirmEmail }),
          },
        ],
      },
      {
        lazy: lazy(() => import('./layouts/shell'), 'ShellLayout'),
        children: [
          // The shell's guard sends "/" home (homeFor); the element is never reached.
          { index: true, element: null, handle: meta({ name: 'Home', title: '' }) },
          {
            path: '/overview',
            lazy: lazy(() => import('./routes/overview'), 'OverviewRoute'),
            handle: meta({ name: 'Overview', title: ja.routes.overview }),
          },
          {
            path: '/overview/agencies/:id',
            lazy: lazy(() => import('./routes/overview-agency'), 'OverviewAgencyRoute'),
            handle: meta({
              name: 'Overview Agencies',
              title: ja.routes.overviewAgency,
              roles: MANAGER_ONLY,
            }),
          },
          {
            path: '/google-my-business',
            lazy: lazy(() => import('./routes/google-my-business'), 'GoogleMyBusinessRoute'),
            handle: meta({
              name: 'Google My Business',
              title: ja.routes.googleMyBusiness,
              needsStores: true,
            }),
          },
          {
            path: '/facebook/connect-page',
            lazy: lazy(() => import('./routes/facebook-connect-page'), 'FacebookConnectPageRoute'),
            handle: meta({ name: 'Facebook', title: ja.routes.facebookConnectPage }),
          },
          {
            path: '/dashboard',
            lazy: lazy(() => import('./routes/dashboard'), 'DashboardRoute'),
            handle: meta({ name: 'Dashboard', title: ja.routes.dashboard }),
          },
          {
            path: '/dashboard-chart',
            lazy: lazy(() => import('./routes/dashboard-chart'), 'DashboardChartRoute'),
            handle: meta({ name: 'Dashboard Chart', title: ja.routes.dashboardChart, ...guarded }),
          },
          {
            path: '/change-payment-method',
            lazy: lazy(() => import('./routes/change-payment-method'), 'ChangePaymentMethodRoute'),
            handle: meta({
              name: 'Change Payment Method',
              title: ja.routes.changePaymentMethod,
              needsStores: true,
            }),
          },
          {
            path: '/connect-account',
            lazy: lazy(() => import('./routes/connect-account'), 'ConnectAccountRoute'),
            handle: meta({ name: 'Connect Account', title: ja.routes.connectAccount, ...guarded }),
          },
          {
            path: '/connect-location',
            lazy: lazy(() => import('./routes/connect-location'), 'ConnectLocationRoute'),
            handle: meta({ name: 'Connect Location', title: ja.routes.connectLocation }),
          },
          {
            path: '/manual-document',
            lazy: lazy(() => import('./routes/manual-document'), 'ManualDocumentRoute'),
            handle: meta({ name: 'Manual Document', title: ja.routes.manualDocument }),
          },
          {
            path: '/audit-log',
            lazy: lazy(() => import('./routes/audit-log'), 'AuditLogRoute'),
            handle: meta({ name: 'Audit Log', title: ja.routes.auditLog }),
          },
          {
            path: '/register-payment',
            lazy: lazy(() => import('./routes/register-payment'), 'RegisterPaymentRoute'),
            handle: meta({
              name: 'Register Payment',
              title: ja.routes.registerPayment,
              needsStores: true,
            }),
          },
          {
            path: '/create-post',
            lazy: lazy(() => import('./routes/create-post'), 'CreatePostRoute'),
            handle: meta({ name: 'Post', title: ja.routes.createPost, ...guarded }),
          },
          {
            path: '/posts',
            lazy: lazy(() => import('./routes/posts'), 'PostsRoute'),
            handle: meta({ name: 'Posts', title: ja.routes.posts, ...guarded }),
          },
          {
            path: '/reviews',
            lazy: lazy(() => import('./routes/reviews'), 'ReviewsRoute'),
            handle: meta({ name: 'Reviews', title: ja.routes.reviews, ...guarded }),
          },
          {
            path: '/post/:id',
            lazy: lazy(() => import('./routes/post-copy'), 'PostCopyRoute'),
            handle: meta({ name: 'Post', title: ja.routes.postCopy, ...guarded }),
          },
          {
            path: '/products',
            lazy: lazy(() => import('./routes/products'), 'ProductsRoute'),
            handle: meta({ name: 'Products', title: ja.routes.products }),
          },
          {
            path: '/basic-information',
            lazy: lazy(() => import('./routes/basic-information'), 'BasicInformationRoute'),
            handle: meta({
              name: 'Basic Information',
              title: ja.routes.basicInformation,
              ...guarded,
            }),
          },
          {
            path: '/knowledge-tag',
            lazy: lazy(() => import('./routes/knowledge-tag'), 'KnowledgeTagRoute'),
            handle: meta({ name: 'Knowledge Tag', title: ja.routes.knowledgeTag, ...guarded }),
          },
          {
            path: '/add-knowledge-tag',
            lazy: lazy(() => import('./routes/add-knowledge-tag'), 'AddKnowledgeTagRoute'),
            handle: meta({
              name: 'Add Knowledge Tag',
              title: ja.routes.addKnowledgeTag,
              ...guarded,
            }),
          },
          {
            path: '/add-knowledge-tag/schema-markup',
            lazy: lazy(() => import('./routes/schema-markup'), 'SchemaMarkupRoute'),
            handle: meta({ name: 'Schema Markup', title: ja.routes.schemaMarkup, ...guarded }),
          },
          {
            path: '/media',
            lazy: lazy(() => import('./routes/media'), 'MediaRoute'),
            handle: meta({ name: 'Media', title: ja.routes.media, ...guarded }),
          },
          {
            path: '/report',
            lazy: lazy(() => import('./routes/report'), 'ReportRoute'),
            handle: meta({ name: 'Report', title: ja.routes.report, paymentGate: true }),
          },
          {
            path: '/report-multiple',
            lazy: lazy(() => import('./routes/report-multiple'), 'ReportMultipleRoute'),
            handle: meta({
              name: 'ReportMultiple',
              title: ja.routes.reportMultiple,
              paymentGate: true,
            }),
          },
          {
            path: '/change-password',
            lazy: lazy(() => import('./routes/change-password'), 'ChangePasswordRoute'),
            handle: meta({ name: 'Change Password', title: ja.routes.changePassword }),
          },
          {
            path: '/setting-account',
            lazy: lazy(() => import('./routes/setting-account'), 'SettingAccountRoute'),
            handle: meta({ name: 'Setting Account', title: ja.routes.settingAccount }),
          },
        ],
      },
      {
        path: '*',
        element: <NotFoundRoute />,
        handle: meta({ name: 'Not Found', title: ja.routes.notFound }),
      },
    ],
  },
];
