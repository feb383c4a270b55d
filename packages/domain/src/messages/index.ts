// Every Japanese text of the domain package, one module per area (issue 24 item 4); the guard
// test (catalog.test.ts) keeps Japanese out of the other modules.
export * from './ja';
export * from './admin';
export * from './paging';
export * from './audit';
export * from './auth';
export * from './groups';
export * from './knowledge-tag';
export * from './payments';
export * from './posts';
export * from './products';
export * from './publishers';
export * from './store-info';
export * from './store-lookups';
export * from './reviews';
export * from './approvals';
export * from './notices';
export * from './review-kit';
export * from './policy-violations';
