/** A template is at most this many characters (the editor and the API). */
export const TEMPLATE_MAX_LENGTH = 20_000;
