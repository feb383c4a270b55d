export * from './paging';
export * from './keyset';
