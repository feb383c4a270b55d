/** Photos a product carries at most (the upload parser's cap per request). */
export const PRODUCT_MAX_FILES = 10;
/** Prices are integer yen from 0 to this (DESIGN §5: money is integer yen). */
export const PRODUCT_PRICE_MAX = 99_999_999;
