import { main } from './data-cli';

// The data commands' entry (bundled as dist/data.mjs, like server.ts and worker.ts): the one place
// they read the environment, as config.ts is for the server.
// eslint-disable-next-line no-restricted-syntax -- a CLI entry, the data tools' config module
await main(process.argv.slice(2), process.env);
