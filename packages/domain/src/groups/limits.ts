/** A group holds at most this many stores (one request, one transaction). */
export const GROUP_STORES_MAX = 1000;
