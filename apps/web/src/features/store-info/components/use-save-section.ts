import { useState } from 'react';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { ja, type BasicInformation } from '@tenpo/domain';
import type { FormEvent } from 'react';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { ApiError, errorLines } from '@/lib/api-client';
import { useLeaveGuard } from '@/lib/use-leave-guard';
import { storeInfoKeys, type SaveAnswer } from '../api/store-info-api';

/**
 * One form's save (spec 2 §8 info forms): the payload checked with the domain's request schema
 * (its messages under the fields), then sent; success is the server's message in a
 * notification and the store's information replaced by the answer; a failure shows the
 * server's errors list, else the generic 500 message, and the form keeps what was typed.
 * Leaving the form with unsaved changes asks first (issue 23 item 3); a save makes what was
 * sent the form's new starting point.
 */
export function useSaveSection<V extends FieldValues>(
  userId: number,
  schema: z.ZodType,
  send: (body: Record<string, unknown>) => Promise<SaveAnswer>,
  form: UseFormReturn<V>,
) {
  const { setError } = form;
  const { t } = useTranslation();
  const qc = useQueryClient();
  useLeaveGuard(form.formState.isDirty, t('common.unsavedLeave'));
  const [errors, setErrors] = useState<string[] | null>(null);
  const [saving, setSaving] = useState(false);

  const save = async (payload: Record<string, unknown>): Promise<boolean> => {
    setErrors(null);
    const checked = schema.safeParse({ user_id: userId, ...payload });
    if (!checked.success) {
      for (const issue of checked.error.issues) {
        const field = String(issue.path[0] ?? '');
        setError(field as Path<V>, { type: 'validate', message: issue.message });
      }
      return false;
    }
    setSaving(true);
    try {
      const r = await send({ user_id: userId, ...payload });
      qc.setQueryData<BasicInformation>(storeInfoKeys.info(userId), r.data);
      form.reset(form.getValues());
      notifications.show({
        color: 'teal',
        message: r.message ?? ja.updateSuccess,
        autoClose: 2000,
      });
      return true;
    } catch (e) {
      if (e instanceof ApiError)
        for (const [field, messages] of Object.entries(e.fieldErrors()))
          if (messages[0]) setError(field as Path<V>, { type: 'server', message: messages[0] });
      setErrors(errorLines(e));
      return false;
    } finally {
      setSaving(false);
    }
  };
  /**
   * The form's submit handler. A previous check's errors are cleared first: some name a list,
   * not an input, and react-hook-form would otherwise keep them and block this submit.
   */
  const onSubmit = (handler: (v: V) => Promise<void>) => {
    const run = form.handleSubmit(handler);
    return (e: FormEvent<HTMLFormElement>) => {
      form.clearErrors();
      void run(e);
    };
  };
  return { save, saving, errors, onSubmit };
}
