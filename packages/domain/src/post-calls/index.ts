export * from './schemas';
export * from './approvals';
