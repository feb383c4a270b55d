export * from './auth';
export * from './envelope';
export * from './error-lines';
export * from './messages';
export * from './paging';
export * from './publishers';
export * from './roles';
export * from './stores';
