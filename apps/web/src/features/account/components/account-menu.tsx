import { useRef, useState } from 'react';
import { Avatar, Center, Group, Loader, Menu, Text, UnstyledButton } from '@mantine/core';
import { Modal } from '@/components/ui/modal';
import type { User } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { loadChunk } from '@/lib/chunk';
import { helpUrl } from '@/lib/env';
import { logout } from '@/lib/session';
import type { AccountInformationForm } from './account-information-form';
import type { ChangePasswordForm } from './change-password-form';

// The two forms bring zod and react-hook-form, which no page behind this menu needs to draw
// itself: they load when the menu opens, before one of its items can be chosen (ADR 0074).
type Forms = {
  ChangePasswordForm: typeof ChangePasswordForm;
  AccountInformationForm: typeof AccountInformationForm;
};
let loadedForms: Forms | null = null;
let loadingForms: Promise<Forms> | null = null;
const loadForms = () =>
  (loadingForms ??= loadChunk(() =>
    Promise.all([import('./change-password-form'), import('./account-information-form')]),
  ).then(
    ([password, information]) =>
      (loadedForms = {
        ChangePasswordForm: password.ChangePasswordForm,
        AccountInformationForm: information.AccountInformationForm,
      }),
    (e: unknown) => {
      loadingForms = null; // reported by loadChunk; the next opening tries again
      throw e;
    },
  ));

/**
 * Account menu (spec 1 §2): manual, change password (modal), change information (modal),
 * switch account (agency, manager, group leader), logout.
 */
export function AccountMenu({ user, canSwitch }: { user: User; canSwitch: boolean }) {
  const { t } = useTranslation();
  const [modal, setModal] = useState<'password' | 'information' | null>(null);
  const [forms, setForms] = useState(loadedForms);
  const prepareForms = () => {
    if (!forms) void loadForms().then(setForms, () => undefined);
  };
  const target = useRef<HTMLButtonElement>(null);
  const dropdown = useRef<HTMLDivElement>(null);
  const name = user.name ?? user.email;
  // Mantine's menu hands focus back to its button 10 ms after it closes: when an item opens a
  // modal, that lands after the modal has taken focus, so focus sat on the button behind the
  // overlay and Tab walked the page. Give it back at once instead (only when it was in the menu
  // or nowhere, as a click elsewhere has put it where the user wants it): the modal then opens
  // with focus on the button, takes it, and returns it to the button when it closes.
  const returnFocus = () => {
    const active = document.activeElement;
    if (!active || active === document.body || dropdown.current?.contains(active)) {
      target.current?.focus();
    }
  };
  return (
    <>
      <Menu
        position="bottom-end"
        width={240}
        shadow="md"
        withinPortal
        returnFocus={false}
        onClose={returnFocus}
        onOpen={prepareForms}
      >
        <Menu.Target>
          <UnstyledButton ref={target} aria-label={t('layout.account.menu')}>
            <Group gap="xs" wrap="nowrap">
              <Avatar radius="xl" size={32} color="blue">
                {name.slice(0, 1)}
              </Avatar>
              <Text size="sm" fw={500} visibleFrom="sm" truncate maw={160}>
                {name}
              </Text>
            </Group>
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown ref={dropdown}>
          <Menu.Label>{user.email}</Menu.Label>
          <Menu.Item component="a" href={helpUrl()} target="_blank" rel="noopener noreferrer">
            {t('layout.account.manual')}
          </Menu.Item>
          <Menu.Item component={Link} to="/manual-document">
            {t('layout.account.manualDocument')}
          </Menu.Item>
          <Menu.Item component={Link} to="/audit-log">
            {t('auditLog.menu')}
          </Menu.Item>
          <Menu.Divider />
          <Menu.Item onClick={() => setModal('password')}>
            {t('layout.account.changePassword')}
          </Menu.Item>
          <Menu.Item onClick={() => setModal('information')}>
            {t('layout.account.changeInformation')}
          </Menu.Item>
          {canSwitch && (
            <Menu.Item component={Link} to="/overview">
              {t('layout.account.switchAccount')}
            </Menu.Item>
          )}
          <Menu.Divider />
          <Menu.Item color="red" onClick={() => void logout()}>
            {t('layout.account.logout')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <Modal
        opened={modal === 'password'}
        onClose={() => setModal(null)}
        title={t('account.passwordTitle')}
      >
        {forms ? (
          <forms.ChangePasswordForm onDone={() => setModal(null)} onCancel={() => setModal(null)} />
        ) : (
          <FormLoading />
        )}
      </Modal>
      <Modal
        opened={modal === 'information'}
        onClose={() => setModal(null)}
        title={t('account.informationTitle')}
      >
        {forms ? (
          <forms.AccountInformationForm
            onDone={() => setModal(null)}
            onCancel={() => setModal(null)}
          />
        ) : (
          <FormLoading />
        )}
      </Modal>
    </>
  );
}

/** Shown in a dialog opened before its form has arrived (a slow network). */
function FormLoading() {
  const { t } = useTranslation();
  return (
    <Center py="xl">
      <Loader aria-label={t('app.loading')} />
    </Center>
  );
}
