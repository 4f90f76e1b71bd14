// The typed client of the Airline Disruption Recovery Service: openapi-fetch over the types that
// openapi-typescript generates from the service's OpenAPI document (schema.ts, from openapi.json; both
// written by `npm run client:generate`, never by hand). Every path, parameter, body and answer is
// typed, and `error` is typed per status: `{detail}` by default, a Problem with `problemDetails: true`.
//
//   const drs = createRecoveryClient({ baseUrl: 'https://drs.example.com', apiKey: process.env.DRS_KEY! });
//   const { data, error } = await drs.GET('/flights', { params: { query: { airline: 'NV' } } });
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { components, operations, paths } from './schema.js';

export type { components, operations, paths };

/** A named schema of the document, e.g. Schema<'SimulationJob'>. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

export interface RecoveryClientOptions {
  /** Where the service answers, e.g. https://drs.example.com (no trailing path). */
  baseUrl: string;
  /** An API key of the environment the service runs in; sent as X-API-Key with every request. */
  apiKey: string;
  /** Ask for RFC 9457 problem details (type, title, status, detail, errors) instead of {detail}. */
  problemDetails?: boolean;
  /** A fetch of your own (tests, proxies); default the global fetch. */
  fetch?: typeof globalThis.fetch;
}

export type RecoveryClient = Client<paths>;

export function createRecoveryClient(options: RecoveryClientOptions): RecoveryClient {
  const client = createClient<paths>({ baseUrl: options.baseUrl, ...(options.fetch ? { fetch: options.fetch } : {}) });
  const headers: Middleware = {
    onRequest({ request }) {
      request.headers.set('X-API-Key', options.apiKey);
      if (options.problemDetails) request.headers.set('Accept', 'application/problem+json');
      return request;
    },
  };
  client.use(headers);
  return client;
}
