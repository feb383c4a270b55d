export * from './fields';
export * from './schemas';
