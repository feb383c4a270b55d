// Loaded by applyBranding only when the host has an agency prefix: no page waits for zod (ADR 0017).
export { domainTitleResponseData } from '@tenpo/domain';
