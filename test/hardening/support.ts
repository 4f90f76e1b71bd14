// Helpers of the hardening tests: the shape every error answer must have, the security headers every
// answer must carry, a keep-alive raw HTTP client for fuzzing, and the service as a child process.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { Agent, request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { REQUIRED_SECURITY_HEADERS } from '../../src/http/security.ts';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export type Headers = Record<string, string | string[] | undefined>;

export interface Answer { status: number; headers: Headers; body: string }

/** The four headers of the specification, with their exact values. `headers` has lower-case names. */
export function expectSecurityHeaders(headers: Headers, context = ''): void {
  for (const [name, value] of Object.entries(REQUIRED_SECURITY_HEADERS)) {
    expect(headers[name.toLowerCase()], `${name} ${context}`).toBe(value);
  }
}

/** An error answer: JSON, exactly {"detail": "<non-empty string>"}. Returns the detail. */
export function expectDetailOnly(answer: { headers: Headers; body: string }, context = ''): string {
  expect(String(answer.headers['content-type']), context).toMatch(/^application\/json/);
  const parsed = JSON.parse(answer.body) as unknown;
  expect(parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed), context).toBe(true);
  expect(Object.keys(parsed as object), context).toEqual(['detail']);
  const { detail } = parsed as { detail: unknown };
  expect(typeof detail, context).toBe('string');
  expect((detail as string).length, context).toBeGreaterThan(0);
  return detail as string;
}

/** fetch's Headers as the plain lower-case record the helpers above take. */
export function headersOf(response: Response): Headers {
  return Object.fromEntries(response.headers.entries());
}

/**
 * A raw HTTP client over a keep-alive agent: the path goes on the wire as written (no URL
 * normalisation), headers and body as given. Thousands of fuzz requests reuse a few sockets instead of
 * leaving thousands in TIME_WAIT.
 */
export function rawClient(baseUrl: string, maxSockets = 4) {
  const { hostname, port } = new URL(baseUrl);
  const agent = new Agent({ keepAlive: true, maxSockets });
  return {
    send(method: string, path: string, headers: Record<string, string> = {}, body?: string | Buffer): Promise<Answer> {
      // Framed by Content-Length whatever the method: Node's client sends a GET or TRACE body unframed,
      // which the server would rightly read as the start of a (malformed) next request.
      const framed = body === undefined ? headers : { ...headers, 'Content-Length': String(Buffer.byteLength(body)) };
      return new Promise((resolve, reject) => {
        const req = httpRequest({ host: hostname, port, method, path, headers: framed, agent }, (res) => {
          const parts: Buffer[] = [];
          res.on('data', (part: Buffer) => parts.push(part));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts).toString('utf8') }));
          res.on('error', reject);
        });
        req.setTimeout(30_000, () => req.destroy(new Error(`no answer within 30 s: ${method} ${path}`)));
        req.on('error', reject);
        if (body !== undefined) req.write(body);
        req.end();
      });
    },
    close: () => agent.destroy(),
  };
}

export interface ServiceProcess {
  child: ChildProcessWithoutNullStreams;
  baseUrl: string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/**
 * `src/main.ts` as a child process on a free loopback port, as an operator starts it. Resolves once it
 * prints its address.
 */
export async function startService(env: Record<string, string>): Promise<ServiceProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
  child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    // A service that does not come up is not left running behind the test.
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`the service did not start within 25 s: ${stdout} ${stderr}`)); }, 25_000);
    const check = () => {
      const match = /Listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
      if (match) { clearTimeout(timer); child.stdout.off('data', check); resolve(match[1]!); }
    };
    child.stdout.on('data', check);
    void exited.then((code) => { clearTimeout(timer); reject(new Error(`the service exited with ${code} before listening: ${stderr}`)); });
  });
  return { child, baseUrl, stdout: () => stdout, stderr: () => stderr, exited };
}
