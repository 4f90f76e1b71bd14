// Scenario: GET /flights and GET /flights/{schedule_file} against the real bundled schedules.
import { get as httpGet } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { utcOffsetMinutes } from '../../src/domain/time.ts';
import { STAGING_KEY, bundledCatalog, rawRequest, startTestServer, type TestServer } from '../support/server.ts';

interface Summary { id: string; tail: string; origin: string; dest: string; dep: string; arr: string }
interface FlightList { airline: string; schedule_file: string; flight_count: number; flights: Summary[] }

const ID = /^([A-Z0-9]{2}\d{1,4})_(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z)$/;
const LOCAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;

let server: TestServer;
beforeAll(async () => { server = await startTestServer(); });
afterAll(async () => { await server.close(); });

async function list(path: string): Promise<FlightList> {
  const response = await server.get(path);
  expect(response.status, path).toBe(200);
  return (await response.json()) as FlightList;
}

function offsetText(timeZone: string, isoUtc: string): string {
  const offset = utcOffsetMinutes(timeZone, Date.parse(isoUtc) / 60_000);
  const abs = Math.abs(offset);
  return `${offset < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

describe('GET /flights', () => {
  it('defaults to airline NV on the default schedule, cut to 50, flight_count the total', async () => {
    const body = await list('/flights');
    const schedule = bundledCatalog().resolve('default')!.schedule;
    expect(body.airline).toBe('NV');
    expect(body.schedule_file).toBe('default');
    expect(Object.keys(body).sort()).toEqual(['airline', 'flight_count', 'flights', 'schedule_file']);
    const total = schedule.flights.filter((f) => f.airline === 'NV').length;
    expect(total).toBeGreaterThan(50);
    expect(body.flight_count).toBe(total);
    expect(body.flights).toHaveLength(50);
  });

  it('summaries have exactly the six fields; ids are <flight_number>_<UTC departure with Z>', async () => {
    const body = await list('/flights');
    for (const f of body.flights) {
      expect(Object.keys(f).sort()).toEqual(['arr', 'dep', 'dest', 'id', 'origin', 'tail']);
      expect(f.id).toMatch(ID);
      expect(f.id.startsWith('NV')).toBe(true);
      expect(f.dep).toMatch(LOCAL);
      expect(f.arr).toMatch(LOCAL);
    }
  });

  it('dep is the id instant in the origin airport zone, arr in the destination zone', async () => {
    const body = await list('/flights');
    const schedule = bundledCatalog().resolve('default')!.schedule;
    for (const f of body.flights) {
      const depUtc = ID.exec(f.id)![2]!;
      expect(Date.parse(f.dep)).toBe(Date.parse(depUtc));
      expect(f.dep.slice(-6)).toBe(offsetText(schedule.airports.get(f.origin)!.timeZone, depUtc));
      const arrUtc = new Date(Date.parse(f.arr)).toISOString();
      expect(f.arr.slice(-6)).toBe(offsetText(schedule.airports.get(f.dest)!.timeZone, arrUtc));
      expect(Date.parse(f.arr)).toBeGreaterThan(Date.parse(f.dep));
    }
  });

  it('in November London is +00:00 and Vienna +01:00', async () => {
    const flights = (await list('/flights')).flights;
    const fromVie = flights.find((f) => f.origin === 'VIE');
    const toLhr = [...flights, ...(await list('/flights?airline=BZ')).flights].find((f) => f.dest === 'LHR' || f.origin === 'LHR');
    expect(fromVie?.dep.endsWith('+01:00')).toBe(true);
    expect(toLhr).toBeDefined();
    if (toLhr!.dest === 'LHR') expect(toLhr!.arr.endsWith('+00:00')).toBe(true);
    else expect(toLhr!.dep.endsWith('+00:00')).toBe(true);
  });

  it('is ordered by UTC departure, then flight number as a string, and is the first 50 of that order', async () => {
    const body = await list('/flights');
    const key = (f: Summary) => [Date.parse(f.dep), ID.exec(f.id)![1]!] as const;
    for (let i = 1; i < body.flights.length; i++) {
      const [depA, numA] = key(body.flights[i - 1]!);
      const [depB, numB] = key(body.flights[i]!);
      expect(depA < depB || (depA === depB && numA < numB), `${body.flights[i - 1]!.id} before ${body.flights[i]!.id}`).toBe(true);
    }
    const schedule = bundledCatalog().resolve('default')!.schedule;
    const expected = schedule.flights.filter((f) => f.airline === 'NV')
      .map((f) => f.id)
      .sort((a, b) => {
        const [, na, da] = /^(.*)_(.*)$/.exec(a)!;
        const [, nb, db] = /^(.*)_(.*)$/.exec(b)!;
        return Date.parse(da!) - Date.parse(db!) || (na! < nb! ? -1 : na! > nb! ? 1 : 0);
      })
      .slice(0, 50);
    expect(body.flights.map((f) => f.id)).toEqual(expected);
  });

  it('the airline filter gives a different, airline-pure list', async () => {
    const nv = await list('/flights?airline=NV');
    const bz = await list('/flights?airline=BZ');
    expect(bz.airline).toBe('BZ');
    expect(bz.flights.length).toBeGreaterThan(0);
    expect(bz.flights.every((f) => f.id.startsWith('BZ'))).toBe(true);
    expect(nv.flights.every((f) => f.id.startsWith('NV'))).toBe(true);
    expect(bz.flight_count).not.toBe(nv.flight_count);
  });

  it('an airline with no flights is 404; a malformed airline is 400 naming the parameter', async () => {
    const unknown = await server.get('/flights?airline=ZZ');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ detail: "Airline 'ZZ' has no flights in schedule 'default'" });
    for (const bad of ['nv', 'NVX', '', 'N', 'N%20']) {
      const response = await server.get(`/flights?airline=${bad}`);
      expect(response.status, bad).toBe(400);
      const body = (await response.json()) as { detail: string };
      expect(Object.keys(body)).toEqual(['detail']);
      expect(body.detail).toContain("'airline'");
      expect(body.detail).toContain('two-character airline code');
    }
  });

  it('an unknown or repeated query parameter is 400 naming it', async () => {
    const unknown = await server.get('/flights?airlines=NV');
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { detail: string }).detail).toContain("'airlines'");
    const repeated = await server.get('/flights?airline=NV&airline=BZ');
    expect(repeated.status).toBe(400);
    expect(((await repeated.json()) as { detail: string }).detail).toBe("Query parameter 'airline' must be given at most once.");
  });
});

describe('GET /flights/{schedule_file}', () => {
  it('serves a named schedule with the same shape; the canonical name is reported with or without .json', async () => {
    const small = await list('/flights/small');
    const smallJson = await list('/flights/small.json');
    expect(small.schedule_file).toBe('small');
    expect(smallJson.schedule_file).toBe('small');
    expect(smallJson).toEqual(small);
    const schedule = bundledCatalog().resolve('small')!.schedule;
    expect(small.flight_count).toBe(schedule.flightsByAirline.get('NV')!.length);
    expect(small.flights.length).toBe(Math.min(50, small.flight_count));
    expect(await list('/flights/default.json')).toEqual(await list('/flights'));
  });

  it('the 50 cut applies here too', async () => {
    const body = await list('/flights/large');
    expect(body.flights).toHaveLength(50);
    expect(body.flight_count).toBeGreaterThan(50);
  });

  it('an unknown schedule is 404 with the contract sentence', async () => {
    const response = await server.get('/flights/nope');
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ detail: "Schedule 'nope' not found" });
    expect((await server.get('/flights/Default')).status).toBe(404);
    expect((await server.get('/flights/default.JSON')).status).toBe(404);
    expect((await server.get('/flights/default.json.json')).status).toBe(404);
  });

  const traversals = [
    '/flights/..%2F..%2Fetc%2Fpasswd',
    '/flights/..%2F..%2F..%2F..%2Fetc%2Fpasswd',
    '/flights/%2e%2e',
    '/flights/%2e%2e%2fpackage',
    '/flights/..',
    '/flights/..%5Cpackage',
    '/flights/..\\..\\etc\\passwd',
    '/flights/%2Fetc%2Fpasswd',
    '/flights//etc/passwd',
    '/flights/C:%5Cwindows%5Cwin.ini',
    '/flights/default.json/..',
    '/flights/default.json%2F..',
    '/flights/default%00',
    '/flights/default.json%00.txt',
    '/flights/..%2Fschedules%2Fdefault',
    '/flights/%252e%252e%252fpackage',
    '/flights/..%2Fpackage.json',
  ];
  it.each(traversals)('%s is 404 and reads nothing', async (path) => {
    const response = await rawRequest(server.baseUrl, 'GET', path, { 'X-API-Key': STAGING_KEY });
    expect(response.status).toBe(404);
    const body = JSON.parse(response.body) as { detail: string };
    expect(Object.keys(body)).toEqual(['detail']);
    expect(body.detail).toMatch(/^(Schedule '.*' not found|Not found)$/s);
    expect(response.body).not.toContain('root:');
    expect(response.body).not.toContain('"version"');
  });
});

describe('the prepared listing (ETag, 304, gzip)', () => {
  it('answers the same bytes gzipped or not, with one strong ETag, and 304 to If-None-Match', async () => {
    const plain = await rawRequest(server.baseUrl, 'GET', '/flights/default?airline=NV', { 'X-API-Key': STAGING_KEY });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const etag = plain.headers.etag as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    expect(plain.headers['cache-control']).toBe('no-cache');

    const zipped = await new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
      const url = new URL('/flights', server.baseUrl);
      const req = httpGet(url, { headers: { 'X-API-Key': STAGING_KEY, 'Accept-Encoding': 'gzip' }, agent: false }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }));
      });
      req.on('error', reject);
    });
    expect(zipped.status).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toMatch(/Accept-Encoding/i);
    // GET /flights is the default schedule and airline: the same answer, the same tag.
    expect(zipped.headers.etag).toBe(etag);
    expect(gunzipSync(zipped.body).toString('utf8')).toBe(plain.body);

    const again = await rawRequest(server.baseUrl, 'GET', '/flights/default', { 'X-API-Key': STAGING_KEY, 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
    const other = await rawRequest(server.baseUrl, 'GET', '/flights/large', { 'X-API-Key': STAGING_KEY, 'If-None-Match': etag });
    expect(other.status).toBe(200);
    expect(other.headers.etag).not.toBe(etag);
  });
});
