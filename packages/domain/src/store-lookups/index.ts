export * from './regions';
export * from './schemas';
