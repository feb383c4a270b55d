import { forwardRef, useState } from 'react';
import { PasswordInput, type PasswordInputProps } from '@mantine/core';
import { ja } from '@/i18n/ja';

/**
 * Mantine's PasswordInput with a show/hide toggle that keyboard users can use. Mantine keeps the
 * toggle out of the tab order, hides it from screen readers and only answers a mouse press or
 * Space; here it is tabbable, named in Japanese (one constant name; aria-pressed, set by Mantine,
 * says whether the password is shown: the toggle-button pattern) and answers Enter too.
 */
export const PasswordField = forwardRef<HTMLInputElement, PasswordInputProps>(
  function PasswordField(props, ref) {
    const [visible, setVisible] = useState(false);
    return (
      <PasswordInput
        ref={ref}
        visible={visible}
        onVisibilityChange={setVisible}
        visibilityToggleButtonProps={{
          tabIndex: 0,
          // The resource itself, not i18next: /login renders this before i18next loads (ADR 0017).
          'aria-label': ja.a11y.showPassword,
          onKeyDown: (e: React.KeyboardEvent<HTMLButtonElement>) => {
            if (e.key !== 'Enter') return;
            // Enter would also submit the form around the field.
            e.preventDefault();
            setVisible((v) => !v);
          },
        }}
        {...props}
      />
    );
  },
);
