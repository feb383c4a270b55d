import { useRef, useState } from 'react';
import { Avatar, Group, Menu, Modal, Text, UnstyledButton } from '@mantine/core';
import type { User } from '@tenpo/domain';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { helpUrl } from '@/lib/env';
import { logout } from '@/lib/session';
import { AccountInformationForm } from './account-information-form';
import { ChangePasswordForm } from './change-password-form';

/**
 * Account menu (spec 1 §2): manual, change password (modal), change information (modal),
 * switch account (agency, manager, group leader), logout.
 */
export function AccountMenu({ user, canSwitch }: { user: User; canSwitch: boolean }) {
  const { t } = useTranslation();
  const [modal, setModal] = useState<'password' | 'information' | null>(null);
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
        <ChangePasswordForm onDone={() => setModal(null)} onCancel={() => setModal(null)} />
      </Modal>
      <Modal
        opened={modal === 'information'}
        onClose={() => setModal(null)}
        title={t('account.informationTitle')}
      >
        <AccountInformationForm onDone={() => setModal(null)} onCancel={() => setModal(null)} />
      </Modal>
    </>
  );
}
