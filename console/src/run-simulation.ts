// How the page runs a simulation: through the jobs API when the service has it (its OpenAPI document
// lists /simulations), with live progress and cancellation; otherwise through POST /simulate, whose
// cancellation is closing the request (the service stops the simulation when its client goes away).
import { postJson } from './api-client.ts';
import { runJob, type JobProgress } from './jobs-client.ts';
import type { SimulationRequest, SimulationResponse } from './wire.ts';

export type RunPath = 'jobs' | 'simulate';

let detected: Promise<RunPath> | null = null;

/** Which path this service offers; asked once per page (the OpenAPI document is public). */
export function detectRunPath(): Promise<RunPath> {
  detected ??= fetch(new URL('../openapi.json', document.baseURI), { cache: 'no-store' })
    .then((r) => (r.ok ? r.json() : { paths: {} }))
    .then((doc: { paths?: Record<string, unknown> }) => ('/simulations' in (doc.paths ?? {}) ? 'jobs' : 'simulate') as RunPath)
    .catch(() => 'simulate' as RunPath);
  return detected;
}

export interface RunUpdate { status: string; progress: JobProgress | null }

export async function runSimulation(body: SimulationRequest, onUpdate: (update: RunUpdate) => void, signal: AbortSignal): Promise<SimulationResponse> {
  if ((await detectRunPath()) === 'jobs') return runJob(body, onUpdate, signal);
  onUpdate({ status: 'running', progress: null });
  return postJson<SimulationResponse>('simulate', body, signal);
}
