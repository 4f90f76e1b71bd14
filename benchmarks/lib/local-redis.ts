// A throw-away redis-server on this machine, for the jobs load test and the jobs tests: a free
// loopback port and the command line of a server that keeps nothing on disk.
import { createServer } from 'node:net';

/** A loopback port nothing listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Arguments of `redis-server` on `port`, loopback only, without persistence. */
export function redisServerArgs(port: number): string[] {
  return ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
}

/** What redis-server prints once it takes connections. */
export const REDIS_READY = /Ready to accept connections/;
