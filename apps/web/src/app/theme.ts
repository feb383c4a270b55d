import { mergeThemeOverrides, type PaginationProps } from '@mantine/core';
import { ja } from '../i18n/ja';
import { themeBase } from './theme-base';

// Mantine's icon-only controls have no name of their own (or an English one): every instance
// gets its Japanese name here, so that no screen can forget it. Since Mantine 9 the password
// toggle is no longer hidden from screen readers and says "Toggle password visibility": it gets
// its Japanese name here too (the keyboard needs state: see components/ui/password-field.tsx).
// Plain theme entries rather than `Modal.extend`, so that the first load does not carry the
// components themselves (ADR 0017).
const pagingNames = {
  first: ja.a11y.firstPage,
  previous: ja.a11y.previousPage,
  next: ja.a11y.nextPage,
  last: ja.a11y.lastPage,
} as const;
const getControlProps: PaginationProps['getControlProps'] = (control) => ({
  'aria-label': pagingNames[control],
});

export const theme = mergeThemeOverrides(themeBase, {
  components: {
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': ja.actions.close } } },
    Pagination: { defaultProps: { getControlProps } },
    PasswordInput: {
      defaultProps: { visibilityToggleButtonProps: { 'aria-label': ja.a11y.showPassword } },
    },
  },
});
