export const ADDITIONAL_CATEGORIES_MAX = 9;
/** Addresses the contact form keeps (spec 2 §7's email list). */
export const EMAILS_MAX = 10;
