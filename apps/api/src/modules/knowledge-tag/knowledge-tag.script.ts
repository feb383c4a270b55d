import { EMBED_FIELD_ATTRIBUTES, type EmbedFieldKey } from '@tenpo/domain';

/** What one embed script carries: the JSON-LD, the page fields' texts, the analytics option. */
export type EmbedPayload = {
  ld: unknown;
  fields: Record<EmbedFieldKey, string>;
  /** 0 always on, 1 always off, 2 per-user opt-in (spec 2 §3); null (never chosen) is off. */
  analytics: number | null;
};

/** JSON as a JavaScript literal that cannot end the script or a line early. */
const literal = (v: unknown) =>
  JSON.stringify(v)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/**
 * The script the shop's page includes (ADR 0045). No dependencies, no eval, no innerHTML:
 * it adds a `<script type="application/ld+json">` data block (never executed, so a page's CSP
 * does not stand in its way), sets the text of the page's marked fields, and, as the analytics
 * option says, reports one page view with a beacon to `…/view` beside its own URL. Option 2
 * counts a visitor who opted in: the page calls `tenpoKnowledgeTag.optIn()` (kept in
 * localStorage) and `optOut()`.
 */
const BODY = `(function (d) {
  'use strict';
  var doc = document, me = doc.currentScript, KEY = 'tenpo-knowledge-tag-consent';
  var ld = doc.createElement('script');
  ld.type = 'application/ld+json';
  ld.setAttribute('data-tenpo-knowledge-tag', '');
  ld.text = JSON.stringify(d.ld);
  (doc.head || doc.documentElement).appendChild(ld);
  function fill() {
    for (var i = 0; i < d.attrs.length; i++) {
      var a = d.attrs[i], els = doc.querySelectorAll('[' + a + ']');
      for (var j = 0; j < els.length; j++) {
        var el = els[j], k = el.getAttribute(a), v = d.fields.hasOwnProperty(k) ? d.fields[k] : '';
        if (!v) continue;
        if (el.tagName === 'A' && k === 'url') el.setAttribute('href', v);
        if (el.tagName === 'A' && k === 'telephone') el.setAttribute('href', 'tel:' + v.replace(/[^0-9+]/g, ''));
        el.textContent = v;
      }
    }
  }
  if (doc.readyState === 'loading') doc.addEventListener('DOMContentLoaded', fill);
  else fill();
  var view = me && me.src ? me.src.replace('/knowledge-tag/embed?', '/knowledge-tag/view?') : null;
  function send() {
    if (!view) return;
    try {
      if (navigator.sendBeacon) navigator.sendBeacon(view);
      else fetch(view, { method: 'POST', mode: 'no-cors', keepalive: true });
    } catch (e) {}
  }
  function consented() {
    try { return window.localStorage.getItem(KEY) === 'granted'; } catch (e) { return false; }
  }
  window.tenpoKnowledgeTag = {
    analytics: d.analytics,
    optIn: function () {
      try { window.localStorage.setItem(KEY, 'granted'); } catch (e) {}
      if (d.analytics === 2) send();
    },
    optOut: function () {
      try { window.localStorage.removeItem(KEY); } catch (e) {}
    }
  };
  if (d.analytics === 0 || (d.analytics === 2 && consented())) send();
})`;

export const embedScript = (p: EmbedPayload): string =>
  `/* Tenpo knowledge tag */\n${BODY}(${literal({ ...p, attrs: EMBED_FIELD_ATTRIBUTES })});\n`;
