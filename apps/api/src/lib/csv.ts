/**
 * The one way a CSV leaves the API (every export goes through `csvLine`): RFC 4180 quoting, and
 * text that a spreadsheet would run as a formula made inert (OWASP "CSV Injection"; ASVS 5.0
 * 1.2.10). A text cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return gets a
 * leading `'`, so Excel and LibreOffice show it as text; numbers are written as they are.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV field. */
export const csvField = (v: string | number): string => {
  const s = typeof v === 'string' && FORMULA_START.test(v) ? `'${v}` : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** One CSV record (no line end). */
export const csvLine = (cells: readonly (string | number)[]): string =>
  cells.map(csvField).join(',');
