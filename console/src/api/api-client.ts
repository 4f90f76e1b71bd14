// Every call the page makes to the service: the key the user typed goes in the X-API-Key header and
// nowhere else. It is kept in sessionStorage (gone when the tab closes), never in localStorage, a URL,
// the page source or a log line; nothing here prints it.

const KEY_STORAGE_NAME = 'drs-console-api-key';

export const apiKey = {
  get: (): string | null => sessionStorage.getItem(KEY_STORAGE_NAME),
  set: (key: string): void => sessionStorage.setItem(KEY_STORAGE_NAME, key),
  forget: (): void => sessionStorage.removeItem(KEY_STORAGE_NAME),
};

/** A non-2xx answer: the service's own {detail} sentence, and Retry-After seconds when it sent one. */
export class ApiError extends Error {
  constructor(readonly status: number, readonly detail: string, readonly retryAfterSeconds: number | null) {
    super(detail);
  }
}

const asSentence = (text: string): string => (/[.!?]$/.test(text) ? text : `${text}.`);

/** The sentence to show the user for a failed call (the service's detail, plus what to do about it). */
export function explainError(error: unknown): { text: string; retryAfterSeconds: number | null } {
  if (error instanceof ApiError) {
    if (error.status === 401 || error.status === 403) return { text: `${asSentence(error.detail)} Check the API key and enter it again.`, retryAfterSeconds: null };
    if (error.status === 503 || error.status === 429) {
      const wait = error.retryAfterSeconds ?? 5;
      return { text: `${asSentence(error.detail)} The service is busy: retry in ${wait} s.`, retryAfterSeconds: wait };
    }
    return { text: error.detail, retryAfterSeconds: null };
  }
  if (error instanceof DOMException && error.name === 'AbortError') return { text: 'Cancelled.', retryAfterSeconds: null };
  return { text: `The service could not be reached (${(error as Error).message}).`, retryAfterSeconds: null };
}

async function failure(response: Response): Promise<ApiError> {
  let detail = `The service answered ${response.status}.`;
  try {
    const body = (await response.json()) as { detail?: unknown };
    if (typeof body.detail === 'string') detail = body.detail;
  } catch { /* not JSON: keep the status sentence */ }
  const retryAfter = Number(response.headers.get('Retry-After'));
  return new ApiError(response.status, detail, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null);
}

/**
 * fetch against the service with the stored key; resolves to the raw response when it is 2xx, throws
 * ApiError otherwise. `path` is relative to the service root (the page lives at /console/).
 */
export async function callApi(path: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetchApi(path, init);
  if (!response.ok) throw await failure(response);
  return response;
}

/**
 * callApi for a caller that handles some non-2xx answers itself (304 of a conditional GET): resolves
 * to the raw response when its status is 2xx or in `accepted`, throws ApiError otherwise.
 */
export async function callApiAccepting(path: string, accepted: readonly number[], init: RequestInit = {}): Promise<Response> {
  const response = await fetchApi(path, init);
  if (!response.ok && !accepted.includes(response.status)) throw await failure(response);
  return response;
}

function fetchApi(path: string, init: RequestInit): Promise<Response> {
  const headers = new Headers(init.headers);
  const key = apiKey.get();
  if (key) headers.set('X-API-Key', key);
  if (init.body !== undefined) headers.set('Content-Type', 'application/json');
  // no-store: the browser adds no conditional header of its own, so a 304 reaches the page only when
  // the page asked for it (If-None-Match) and means what the page thinks it means.
  return fetch(new URL(`../${path.replace(/^\//, '')}`, document.baseURI), { ...init, headers, cache: 'no-store' });
}

export async function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  return (await (await callApi(path, signal ? { signal } : {})).json()) as T;
}

export async function postJson<T>(path: string, body: unknown, signal?: AbortSignal): Promise<T> {
  return (await (await callApi(path, { method: 'POST', body: JSON.stringify(body), ...(signal ? { signal } : {}) })).json()) as T;
}
