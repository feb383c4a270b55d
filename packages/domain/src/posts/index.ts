export * from './media-rules';
export * from './post-rules';
export * from './text-length';
export * from './topic-rules';
