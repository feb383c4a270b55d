export * from './schemas';
export * from './approvals';
export * from './templates';
