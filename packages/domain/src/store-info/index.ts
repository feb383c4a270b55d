export * from './hours';
export * from './schemas';
export * from './limits';
