import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Providers } from '../../app/providers';
import { Modal } from './modal';

const at = (opened: boolean) => (
  <Providers env="test">
    <Modal opened={opened} onClose={() => {}} title="確認">
      本文
    </Modal>
  </Providers>
);
const root = () => document.querySelector('.mantine-Modal-root');

describe('Modal', () => {
  it('draws nothing until it first opens, then stays drawn once closed', () => {
    const { rerender } = render(at(false));
    expect(root()).toBeNull();

    rerender(at(true));
    expect(screen.getByRole('dialog', { name: '確認' })).toHaveTextContent('本文');

    rerender(at(false));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(root()).not.toBeNull();
  });

  it('opens at once when it mounts open', () => {
    render(at(true));
    expect(screen.getByRole('dialog', { name: '確認' })).toBeInTheDocument();
  });
});
