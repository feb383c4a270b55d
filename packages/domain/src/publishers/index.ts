export * from './publishers';
export * from './schemas';
