import net from 'node:net';

/** A TCP port free on 127.0.0.1 now, for a server the bench is about to start. */
export const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
