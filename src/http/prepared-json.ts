// An answer serialized once and served many times: its JSON, its gzip and its strong ETag are made
// when it is prepared, so that serving it costs no serialization, hashing, validation or compression
// per request. GET /flights answers so: under load its HTTP thread is the one that also receives and
// presents the simulations (README "Capacity and load test": gzip alone was a fifth of a listing's
// CPU on that thread).
import { gzipSync } from 'node:zlib';
import type { Request, Response } from 'express';
import { answeredNotModified, strongETag } from './conditional.ts';

export class PreparedJson {
  readonly json: Buffer;
  readonly gzip: Buffer;
  readonly etag: string;

  /** `value` stays for the builder's schema check (once per prepared answer, outside production). */
  constructor(readonly value: unknown) {
    const text = JSON.stringify(value);
    this.json = Buffer.from(text);
    this.gzip = gzipSync(this.json);
    this.etag = strongETag(text);
  }

  /** 304 when If-None-Match names it; else the body, gzipped when the client accepts gzip. */
  send(req: Request, res: Response, status: number): void {
    res.setHeader('Vary', 'Accept-Encoding');
    if (answeredNotModified(res, this.etag)) return;
    res.status(status).type('application/json');
    // With Content-Encoding set, the compression middleware leaves the body as it is.
    if (req.acceptsEncodings('gzip', 'identity') === 'gzip') res.setHeader('Content-Encoding', 'gzip').send(this.gzip);
    else res.send(this.json);
  }
}
