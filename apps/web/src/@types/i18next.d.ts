// Typed keys for `t('…')` (ADR 0084): i18next's TypeScript support, declared as its
// documentation recommends (a declaration file under src/@types). The one resource is `ja`.
import 'i18next';
import type { Ja } from '../i18n/ja';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: Ja };
  }
}
