export * from './contract';
export * from './schemas';
