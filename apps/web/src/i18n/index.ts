import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { ja } from './ja';

// The interface language is fixed to Japanese (spec 1 §1).
void i18next.use(initReactI18next).init({
  lng: 'ja',
  fallbackLng: 'ja',
  resources: { ja: { translation: ja } },
  interpolation: { escapeValue: false },
  initAsync: false,
});

export const i18n = i18next;
