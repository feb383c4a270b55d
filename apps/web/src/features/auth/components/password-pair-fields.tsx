import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { PasswordField } from '@/components/ui/password-field';

type Pair = { password: string; password_confirmation: string };

/** Password and confirmation inputs shared by reset-password and register-account. */
export function PasswordPairFields({
  register,
  errors,
}: {
  register: UseFormRegister<Pair>;
  errors: FieldErrors<Pair>;
}) {
  const { t } = useTranslation();
  return (
    <>
      <PasswordField
        label={t('auth.password')}
        autoComplete="new-password"
        withAsterisk
        error={errors.password?.message}
        {...register('password')}
      />
      <PasswordField
        label={t('auth.passwordConfirmation')}
        autoComplete="new-password"
        withAsterisk
        error={errors.password_confirmation?.message}
        {...register('password_confirmation')}
      />
    </>
  );
}
