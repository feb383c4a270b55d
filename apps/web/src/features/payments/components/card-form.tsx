import { useEffect, useMemo, useRef, useState } from 'react';
import {
  Button,
  Group,
  Loader,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { Modal } from '@/components/ui/modal';
import { notifications } from '@mantine/notifications';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import {
  CARD_MONTHS,
  CARD_NAME_MAX,
  CVV_MAX,
  cardFormSchema,
  cardYears,
  maskCardNumber,
  paymentJa,
  type CardForm as CardFields,
} from '@tenpo/domain';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { ErrorAlert } from '@/components/ui/error-alert';
import { ApiError, errorLines } from '@/lib/api-client';
import { CARD_TOAST_MS } from '@/lib/timing';
import {
  authenticateCardCall,
  completeCardCall,
  paymentKeys,
  usePaymentProvider,
  type CardAuthentication,
} from '../api/payments-api';
import { cardScreenOf, leaveToIssuer, takeTdsReturn } from '../purchase';
import { TokenError, generateCardToken } from '../token';

const empty: CardFields = {
  cardNumber: '',
  cardName: '',
  cardYear: '',
  cardMonth: '',
  cardCvv: '',
};
const L = paymentJa.labels;

/**
 * The card form of spec 1 §5. The number, expiry and security code go to the card provider's
 * token script; Tenpo receives only the one-time token pair (and never the card number).
 * Failures (spec 1 §8): a 404 is the card-registration error, a 422 shows its messages, and
 * anything else opens a dialog that reloads the page on confirm.
 */
export function CardForm({
  storeId,
  submitLabel,
  onRegistered,
}: {
  storeId: number;
  submitLabel: string;
  onRegistered?: () => void;
}) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const provider = usePaymentProvider(storeId);
  const { pathname } = useLocation();
  const [lines, setLines] = useState<string[] | null>(null);
  const [fatal, setFatal] = useState<string[] | null>(null);
  const years = useMemo(
    () => cardYears().map((y) => ({ value: String(y), label: paymentJa.yearLabel(y) })),
    [],
  );
  const months = useMemo(
    () => CARD_MONTHS.map((m) => ({ value: m, label: paymentJa.monthLabel(m) })),
    [],
  );
  const form = useForm<CardFields>({
    // The schema is built per submit-time "now", so a page left open over a month end still
    // judges the expiry by this month.
    resolver: (values, ctx, opts) => zodResolver(cardFormSchema(new Date()))(values, ctx, opts),
    defaultValues: empty,
  });
  const fe = form.formState.errors;

  const registered = (r: { data: CardAuthentication; message?: string | null }) => {
    qc.setQueryData(paymentKeys.card(storeId), r.data.card);
    notifications.show({
      color: 'teal',
      message: r.message ?? paymentJa.cardRegistered,
      autoClose: CARD_TOAST_MS,
    });
    onRegistered?.();
  };
  const failed = (e: unknown) => {
    if (e instanceof TokenError) setLines([e.message]);
    else if (e instanceof ApiError && e.status === 404) setLines([paymentJa.cardRegisterFailed]);
    else if (e instanceof ApiError && e.status === 422) setLines(e.lines);
    else setFatal(errorLines(e));
  };

  // Back from the issuer's 3-D Secure challenge: Tenpo asks SBPS for the verdict (never the
  // address bar's word) and stores the card only if it passed. Once per page load.
  const [checking, setChecking] = useState(false);
  const returned = useRef(false);
  useEffect(() => {
    if (returned.current) return;
    returned.current = true;
    const back = takeTdsReturn();
    if (!back) return;
    setChecking(true);
    completeCardCall(storeId, back.state, back.trackingId)
      .then(registered, failed)
      .finally(() => setChecking(false));
    // Once, on the page the issuer sent the browser back to.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per page load, by design
  }, []);

  const submit = form.handleSubmit(async (v) => {
    setLines(null);
    try {
      if (!provider.data) throw provider.error ?? new ApiError(0, null);
      const { token, tokenKey } = await generateCardToken(provider.data, {
        number: v.cardNumber,
        year: v.cardYear,
        month: v.cardMonth,
        cvv: v.cardCvv,
      });
      const r = await authenticateCardCall(storeId, token, tokenKey, cardScreenOf(pathname));
      form.reset(empty);
      // The issuer wants to see the holder: nothing is stored until they come back.
      if (r.data.status === 'challenge' && r.data.redirect_url) {
        leaveToIssuer(r.data.redirect_url);
        return;
      }
      registered(r);
    } catch (e) {
      failed(e);
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-label={submitLabel}>
      <Stack maw={520}>
        {checking && (
          <Group gap="xs" role="status">
            <Loader size="sm" />
            <Text size="sm">{t('paymentSettings.tdsChecking')}</Text>
          </Group>
        )}
        <ErrorAlert lines={lines} />
        <Controller
          control={form.control}
          name="cardNumber"
          render={({ field }) => (
            <TextInput
              label={L.cardNumber}
              withAsterisk
              inputMode="numeric"
              autoComplete="cc-number"
              placeholder={t('paymentSettings.cardNumberPlaceholder')}
              maxLength={19}
              error={fe.cardNumber?.message}
              name={field.name}
              ref={field.ref}
              value={field.value}
              onBlur={field.onBlur}
              onChange={(e) => field.onChange(maskCardNumber(e.currentTarget.value))}
            />
          )}
        />
        <TextInput
          label={L.cardName}
          withAsterisk
          autoComplete="cc-name"
          maxLength={CARD_NAME_MAX}
          error={fe.cardName?.message}
          {...form.register('cardName')}
        />
        <SimpleGrid cols={2}>
          <Controller
            control={form.control}
            name="cardYear"
            render={({ field }) => (
              <Select
                label={L.cardYear}
                withAsterisk
                data={years}
                value={field.value || null}
                onChange={(v) => field.onChange(v ?? '')}
                onBlur={field.onBlur}
                error={fe.cardYear?.message}
              />
            )}
          />
          <Controller
            control={form.control}
            name="cardMonth"
            render={({ field }) => (
              <Select
                label={L.cardMonth}
                withAsterisk
                data={months}
                value={field.value || null}
                onChange={(v) => field.onChange(v ?? '')}
                onBlur={field.onBlur}
                error={fe.cardMonth?.message}
              />
            )}
          />
        </SimpleGrid>
        <PasswordInput
          label={L.cardCvv}
          withAsterisk
          inputMode="numeric"
          autoComplete="cc-csc"
          maxLength={CVV_MAX}
          w={200}
          error={fe.cardCvv?.message}
          {...form.register('cardCvv')}
        />
        <Group>
          <Button type="submit" loading={form.formState.isSubmitting}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
      <Modal
        opened={fatal !== null}
        onClose={() => window.location.reload()}
        title={t('paymentSettings.errorTitle')}
      >
        <Stack>
          <ErrorAlert lines={fatal} />
          <Group justify="flex-end">
            <Button onClick={() => window.location.reload()}>{t('actions.ok')}</Button>
          </Group>
        </Stack>
      </Modal>
    </form>
  );
}
