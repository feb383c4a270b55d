export * from './hours';
export * from './schemas';
