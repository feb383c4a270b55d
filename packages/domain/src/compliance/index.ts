export * from './schemas';
export * from './sources';
export * from './rules';
export * from './categories';
export * from './check';
