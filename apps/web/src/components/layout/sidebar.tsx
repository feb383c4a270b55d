import { useState, type ReactNode } from 'react';
import { Box, Image, NavLink, ScrollArea, Stack, Text, UnstyledButton } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { NavLink as RouterLink, useLocation } from 'react-router';

export const LOGO_PLACEHOLDER = '/images/logo-placeholder.svg';

type Item =
  | { to: string; label: string }
  | { label: string; children: { to: string; label: string }[] };

/** Default side bar and the reduced multi-store one (spec 1 §2 layout shell). */
export const menuItems = (
  kind: 'default' | 'multi',
  showPayment: boolean,
  t: TFunction,
): Item[] => {
  if (kind === 'multi') {
    return [
      { to: '/report', label: t('layout.menu.report') },
      {
        label: t('layout.menu.postManagement'),
        children: [{ to: '/create-post', label: t('layout.menu.createPost') }],
      },
      // The reviews of the selected stores together (issue 25).
      { to: '/reviews', label: t('layout.menu.reviews') },
      { to: '/audit-log', label: t('auditLog.menu') },
    ];
  }
  const items: Item[] = [
    { to: '/dashboard', label: t('layout.menu.dashboard') },
    { to: '/report', label: t('layout.menu.report') },
    {
      label: t('layout.menu.storeInformation'),
      children: [
        { to: '/basic-information', label: t('layout.menu.basicInformation') },
        { to: '/knowledge-tag', label: t('layout.menu.knowledgeTag') },
        { to: '/connect-account', label: t('layout.menu.connectAccount') },
      ],
    },
    {
      label: t('layout.menu.postManagement'),
      children: [
        { to: '/media', label: t('layout.menu.media') },
        { to: '/posts', label: t('layout.menu.posts') },
      ],
    },
    { to: '/reviews', label: t('layout.menu.reviews') },
  ];
  if (showPayment) items.push({ to: '/register-payment', label: t('layout.menu.registerPayment') });
  items.push({ to: '/audit-log', label: t('auditLog.menu') });
  return items;
};

export function Sidebar({
  kind,
  showPayment,
  logoUrl,
  title,
  canChangeLogo,
  onLogoClick,
  onNavigate,
}: {
  kind: 'default' | 'multi';
  showPayment: boolean;
  logoUrl: string | null;
  title: string;
  canChangeLogo: boolean;
  onLogoClick: () => void;
  onNavigate?: () => void;
}) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const logo = (
    <Image
      src={logoUrl || LOGO_PLACEHOLDER}
      fallbackSrc={LOGO_PLACEHOLDER}
      alt={t('layout.logoAlt')}
      h={72}
      w={72}
      fit="contain"
      radius="md"
    />
  );
  return (
    <Stack h="100%" gap={0}>
      <Stack
        align="center"
        gap={6}
        p="md"
        style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
      >
        {canChangeLogo ? (
          <UnstyledButton
            onClick={onLogoClick}
            aria-label={t('layout.changeLogo')}
            title={t('layout.changeLogo')}
          >
            {logo}
          </UnstyledButton>
        ) : (
          logo
        )}
        <Text fw={600} size="sm" ta="center" lineClamp={2}>
          {title}
        </Text>
      </Stack>
      <ScrollArea style={{ flex: 1 }}>
        <Box component="nav" p="xs" aria-label={t('a11y.mainMenu')}>
          {menuItems(kind, showPayment, t).map((item) =>
            'to' in item ? (
              <NavLink
                key={item.to}
                component={RouterLink}
                to={item.to}
                label={item.label}
                active={pathname === item.to}
                onClick={onNavigate}
              />
            ) : (
              <SidebarGroup key={item.label} label={item.label}>
                {item.children.map((c) => (
                  <NavLink
                    key={c.to}
                    component={RouterLink}
                    to={c.to}
                    label={c.label}
                    active={pathname === c.to}
                    onClick={onNavigate}
                  />
                ))}
              </SidebarGroup>
            ),
          )}
        </Box>
      </ScrollArea>
    </Stack>
  );
}

/**
 * A side-bar group that opens and closes its links. Mantine renders a group as an <a> without
 * href: not focusable, announced as nothing. A real button with aria-expanded lets keyboard and
 * screen-reader users reach it and hear whether it is open.
 */
function SidebarGroup({ label, children }: { label: string; children: ReactNode }) {
  const [opened, setOpened] = useState(true);
  return (
    <NavLink
      component="button"
      type="button"
      label={label}
      opened={opened}
      onChange={setOpened}
      aria-expanded={opened}
      childrenOffset={16}
    >
      {children}
    </NavLink>
  );
}
