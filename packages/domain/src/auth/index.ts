export * from './fields';
export * from './schemas';
export * from './image-limits';
