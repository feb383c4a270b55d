export * from './facts';
export * from './json-ld';
export * from './schemas';
export * from './limits';
