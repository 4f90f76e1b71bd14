// The real service as a child process (src/main.ts), on loopback, for /simulate over HTTP and for
// throughput with autocannon. The server gets a port of its own choosing (PORT=0), a generated
// development key, and is stopped with SIGTERM (its graceful shutdown), SIGKILL if it hangs.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { percentile, round } from './stats.ts';
import { REPO_DIR } from './scenarios.ts';

export interface RunningServer {
  baseUrl: string;
  apiKey: string;
  pid: number;
  stop(): Promise<void>;
}

/** Start `node --import tsx src/main.ts`; resolves once /health answers 200. */
export async function startServer(extraEnv: Record<string, string> = {}, root = REPO_DIR): Promise<RunningServer> {
  const apiKey = `drs_development_bench${randomBytes(24).toString('base64url')}`;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', APP_ENV: 'development', API_KEYS: apiKey, LOG_LEVEL: 'info', ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => { if (output.length < 20_000) output += chunk.toString('utf8'); };
  // Always drained: a full pipe would block the server's logger.
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the service did not start within 60 s:\n${output.slice(-2000)}`)), 60_000);
    const watch = () => {
      const match = /Listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (match) { clearTimeout(timer); child.stdout!.off('data', watch); resolve(Number(match[1])); }
    };
    child.stdout!.on('data', watch);
    void exited.then((code) => { clearTimeout(timer); reject(new Error(`the service exited with code ${code} before listening:\n${output.slice(-2000)}`)); });
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${baseUrl}/health`)).ok) break;
    } catch { /* not yet */ }
    if (i > 100) throw new Error('the service listens but /health never answered 200');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    baseUrl,
    apiKey,
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

/** `status` 0: no answer at all (the connection failed or was reset; `body` says why). */
export interface PostResult { status: number; ms: number; body: unknown }

/**
 * POSTs `body` as JSON. Never rejects: a request that gets no answer is a failed request of the
 * benchmark (status 0), reported with the others, not the end of the benchmark.
 */
export async function postJson(server: RunningServer, path: string, body: unknown): Promise<PostResult> {
  const started = performance.now();
  let response: Response;
  let text: string;
  try {
    response = await fetch(`${server.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-API-Key': server.apiKey },
      body: JSON.stringify(body),
    });
    text = await response.text();
  } catch (error) {
    return { status: 0, ms: performance.now() - started, body: `no answer: ${(error as Error).message}` };
  }
  const ms = performance.now() - started;
  let parsed: unknown = text;
  try { parsed = JSON.parse(text); } catch { /* keep the text */ }
  return { status: response.status, ms, body: parsed };
}

export interface ThroughputResult {
  connections: number;
  duration_s: number;
  requests: number;
  ok_2xx: number;
  requests_per_s: number;
  median_ms: number | null;
  p95_ms: number | null;
  p99_ms: number | null;
  /** Socket errors + timeouts + non-2xx answers. */
  errors: number;
  status_codes: Record<string, number>;
}

/** Load `path` with autocannon at a fixed concurrency, cycling through `bodies`. Rates and latencies are of 2xx answers. */
export function throughput(server: RunningServer, path: string, bodies: unknown[], connections: number, durationS: number): Promise<ThroughputResult> {
  const latencies: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon({
      url: server.baseUrl,
      connections,
      duration: durationS,
      timeout: 30,
      headers: { 'Content-Type': 'application/json', 'X-API-Key': server.apiKey },
      requests: bodies.map((b) => ({ method: 'POST', path, body: JSON.stringify(b) })),
    }, (error, result) => {
      if (error) { reject(error); return; }
      const statusCodes: Record<string, number> = {};
      for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = stat.count;
      const total = Object.values(statusCodes).reduce((a, b) => a + b, 0);
      resolve({
        connections,
        duration_s: round(result.duration, 2)!,
        requests: total,
        ok_2xx: result['2xx'],
        requests_per_s: round(result['2xx'] / result.duration, 2)!,
        median_ms: round(percentile(latencies, 50)),
        p95_ms: round(percentile(latencies, 95)),
        p99_ms: round(percentile(latencies, 99)),
        errors: result.errors + result.timeouts + result.non2xx,
        status_codes: statusCodes,
      });
    });
    instance.on('response', (_client, status, _bytes, responseTimeMs) => { if (status >= 200 && status < 300) latencies.push(responseTimeMs); });
  });
}
