/** Spec 1 §5 and §9: the card form's limits. */
export const CARD_NUMBER_DIGITS = 16;
export const CARD_YEAR_OPTIONS = 48;
export const CVV_MIN = 3;
export const CVV_MAX = 4;
export const CARD_NAME_MAX = 45;
