export * from './ja';
