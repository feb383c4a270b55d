import { startTransition, useEffect, useRef, useState } from 'react';
import {
  Alert,
  AppShell,
  Burger,
  Group,
  LoadingOverlay,
  Stack,
  Title,
  useMantineTheme,
} from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { ROLE, paymentMenuVisible, type StoreRow, type User } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { Sidebar } from '../../components/layout/sidebar';
import {
  accountInformationCall,
  uploadAgencyLogoCall,
} from '../../features/account/api/account-api';
import { AccountMenu } from '../../features/account/components/account-menu';
import { NoticeBell } from '../../features/notices/components/notice-bell';
import { LogoUploadDialog } from '../../features/account/components/logo-upload-dialog';
import { LoginErrorDialog } from '../../components/ui/login-error-dialog';
import { TermsDialog } from '../../features/auth/components/terms-dialog';
import { StoreSelector } from '../../features/stores/components/store-selector';
import { errorLines } from '../../lib/api-client';
import { useBrandTitle } from '../../lib/branding';
import { useGlobalLoading, withLoading } from '../../lib/loading';
import { selectStores, singleStoreUsable, syncSelection, useSelection } from '../../lib/selection';
import {
  clearSession,
  endedByLogout,
  isAccountManager,
  isMultiStoreUser,
  logout,
  adoptStoredToken,
  logoVersion,
  refreshSession,
  sessionIsStale,
  setUser,
  tokenRemoved,
  useSession,
} from '../../lib/session';
import { forgetReturnPath, rememberReturnPath } from '../../lib/return-path';
import { storage } from '../../lib/storage';
import { SESSION_RETRY_MS } from '../../lib/timing';
import { useStore } from '../../lib/store';
import {
  ACCOUNT_SCREENS,
  MULTI_STORE_SCREENS,
  NO_SELECTOR_SCREENS,
  afterSelect,
  guardRedirect,
} from '../route-meta';
import { useRouteMeta } from '../use-route-meta';
import { FullLoader } from '../../components/ui/full-loader';
import { PageTitle } from '../../components/ui/page-title';
import { Redirect } from '../redirect';

/** Login guard of spec 1 §2: no token → /login; a token but no session → refresh first. */
export function AdminLayout() {
  const session = useSession();
  const location = useLocation();
  const [checking, setChecking] = useState(
    () => !session.isLoggedIn && storage.get('token') !== null,
  );
  // A session whose token left storage (removed by hand, or by a logout in another tab) is
  // over: forget it, so that /login does not see a signed-in user and send it back here.
  const gone = session.isLoggedIn && storage.get('token') === null;
  useEffect(() => {
    if (gone) clearSession();
  }, [gone]);
  // A rotation that got no answer (the network, a server restarting) is tried again: the token
  // stays, and the page loads once the server answers.
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (!checking) return;
    let live = true;
    let retry: ReturnType<typeof setTimeout> | undefined;
    void refreshSession().then((r) => {
      if (!live) return;
      if (r === 'unreachable') {
        retry = setTimeout(() => setAttempt((n) => n + 1), SESSION_RETRY_MS);
        return;
      }
      // Signed out: the render below redirects to /login.
      if (r === 'gone') clearSession();
      // The first screen renders in slices (a transition), not one long task (ADR 0079).
      startTransition(() => setChecking(false));
    });
    return () => {
      live = false;
      clearTimeout(retry);
    };
  }, [checking, attempt]);

  // Signed in and in the app: a path kept for the return after a login has served.
  const inApp = !checking && session.isLoggedIn && storage.get('token') !== null;
  useEffect(() => {
    if (inApp) forgetReturnPath();
  }, [inApp]);

  if (checking) return <FullLoader />;
  if (!session.isLoggedIn || !session.user || !storage.get('token')) {
    // A session that ended (or a page opened signed out) comes back here after the login;
    // a chosen logout goes home (issue 23 item 3).
    if (!endedByLogout()) rememberReturnPath(`${location.pathname}${location.search}`);
    return <Redirect to="/login" />;
  }
  return <Shell user={session.user} connectGMB={session.connectGMB} />;
}

/** Session refresh and logo reload on every route change; following the other tabs. */
function useRouteChange() {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    // No token in storage means Login (spec 1 §2), once: clearing the session lets the layout
    // redirect, and /login then finds nobody signed in to send back.
    if (tokenRemoved()) {
      clearSession();
      return;
    }
    // Another account's login took the storage; the warning is up and waits for its confirm.
    if (sessionIsStale()) return;
    // The guard has just rotated the token when it restored the session; once is enough.
    if (first.current) {
      first.current = false;
      return;
    }
    // A session that is gone is cleared; the layout then redirects to /login (once: a second
    // navigate here would be a second move).
    // Only a session the server says is over: a rotation cut off (the page reloaded or left
    // while it travelled, the network) keeps the token, which the next page rotates again.
    void refreshSession().then((r) => {
      if (r === 'gone' && !sessionIsStale()) clearSession();
    });
  }, [pathname]);

  // Another tab signed in, rotated the token or signed out.
  useEffect(() => {
    const onStorage = (e: StorageEvent) => {
      if (e.key === 'userIds') syncSelection();
      if (e.key !== 'token') return;
      if (e.newValue === null) {
        clearSession();
        return;
      }
      // Whose token is it? A rotation by a tab of this user is followed silently; another
      // account's login marks the session stale. Reading the account does not rotate, so the
      // tabs do not set each other off. A failure here is left to the next call (a 401 logs out).
      const token = e.newValue;
      accountInformationCall().then(
        (r) => adoptStoredToken(token, r.data),
        () => {},
      );
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);
}

function Shell({ user, connectGMB }: { user: User; connectGMB: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const meta = useRouteMeta();
  const selection = useSelection();
  const loading = useGlobalLoading();
  useStore(logoVersion);
  const brand = useBrandTitle();
  const [mobileOpened, mobile] = useDisclosure(false);
  // On a phone the side bar waits off-screen until the menu button opens it: its links are drawn
  // once it first opens (or on a wide screen), not on every page load (a third of /posts'
  // elements; ADR 0079's addendum). Read at once, so a wide screen draws them in the first render.
  // The AppShell's own breakpoint below (`sm`), from the theme rather than written out again.
  const { breakpoints } = useMantineTheme();
  const wide = useMediaQuery(`(min-width: ${breakpoints.sm})`, undefined, {
    getInitialValueInEffect: false,
  });
  const [navDrawn, setNavDrawn] = useState(false);
  if ((wide || mobileOpened) && !navDrawn) setNavDrawn(true);
  const [logoOpen, setLogoOpen] = useState(false);
  const stale = useSession().otherAccount;
  useRouteChange();

  const name = meta?.name ?? null;
  const redirect = meta
    ? guardRedirect(meta, { user, connectGMB, selectedIds: selection.ids })
    : null;
  if (redirect) return <Redirect to={redirect} />;

  const multiUser = isMultiStoreUser(user);
  const showSidebar = !(multiUser && name !== null && ACCOUNT_SCREENS.has(name));
  const showSelector = multiUser && !(name !== null && NO_SELECTOR_SCREENS.has(name));
  const multiScreen = name !== null && MULTI_STORE_SCREENS.has(name);
  // A multi-store selection reaching a single-store screen asks for one store rather than
  // acting for its first (spec 1 §2); the account screens act for no store.
  const needsOneStore =
    showSelector &&
    !multiScreen &&
    !(name !== null && ACCOUNT_SCREENS.has(name)) &&
    !singleStoreUsable(selection);
  const current = selection.stores.find((s) => s.id === selection.ids[0]);
  const showPayment = isAccountManager(user)
    ? current !== undefined && paymentMenuVisible(current.agent_code)
    : paymentMenuVisible(user.agent_code);

  const onSelect = (ids: number[], rows: StoreRow[]) => {
    selectStores(rows, user, ids);
    const to = afterSelect(name, ids.length);
    if (to) void navigate(to);
  };

  const saveLogo = async (file: File) => {
    try {
      await withLoading(async () => {
        const r = await uploadAgencyLogoCall(file, user.id);
        const info = await accountInformationCall();
        setUser(info.data);
        if (r.data.logo_url) storage.set('userLogo', r.data.logo_url);
        logoVersion.set((n) => n + 1);
        await qc.invalidateQueries();
      });
      setLogoOpen(false);
      notifications.show({
        color: 'teal',
        message: t('actions.success.logoUpdated'),
        autoClose: 2000,
      });
    } catch (e) {
      notifications.show({ color: 'red', message: errorLines(e).join('\n'), autoClose: 2000 });
    }
  };

  const title = user.store_name ?? user.company_name ?? user.name ?? user.email;

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{
        width: 250,
        breakpoint: 'sm',
        collapsed: { mobile: !mobileOpened || !showSidebar, desktop: !showSidebar },
      }}
      padding="lg"
    >
      <LoadingOverlay visible={loading} zIndex={1000} overlayProps={{ blur: 1 }} />
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            {showSidebar && (
              <Burger
                opened={mobileOpened}
                onClick={mobile.toggle}
                hiddenFrom="sm"
                size="sm"
                aria-label={t('a11y.menu')}
              />
            )}
            <Title order={3} c="blue.7">
              {brand}
            </Title>
          </Group>
          <Group gap="md" wrap="nowrap">
            {showSelector && (
              <StoreSelector
                user={user}
                mode={multiScreen ? 'multi' : 'single'}
                selectedIds={selection.ids}
                knownStores={selection.stores}
                onSelect={onSelect}
              />
            )}
            <NoticeBell />
            <AccountMenu user={user} canSwitch={multiUser} />
          </Group>
        </Group>
      </AppShell.Header>
      {showSidebar && (
        <AppShell.Navbar>
          {navDrawn && (
            <Sidebar
              kind={multiScreen && selection.ids.length > 1 ? 'multi' : 'default'}
              showPayment={showPayment}
              logoUrl={storage.get('userLogo')}
              title={title}
              canChangeLogo={user.role === ROLE.agency}
              onLogoClick={() => setLogoOpen(true)}
              onNavigate={mobile.close}
            />
          )}
        </AppShell.Navbar>
      )}
      <AppShell.Main bg="gray.0">
        {needsOneStore ? (
          <Stack>
            {meta?.title && <PageTitle>{meta.title}</PageTitle>}
            <Alert color="blue" variant="light" data-testid="choose-one-store">
              {t('screens.dashboard.noStore')}
            </Alert>
          </Stack>
        ) : (
          <Outlet />
        )}
      </AppShell.Main>
      <TermsDialog onAgreed={() => void navigate('/', { replace: true })} />
      <LogoUploadDialog opened={logoOpen} onClose={() => setLogoOpen(false)} onSave={saveLogo} />
      <LoginErrorDialog opened={stale} onConfirm={() => void logout()} />
    </AppShell>
  );
}
