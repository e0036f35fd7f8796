// A request's body as bytes, for the few routes that take a file rather than JSON (a chat file's
// upload): any content type, up to a limit (413 in the API's shape past it).
import express, { type Request, type Response } from 'express';
import { fromBodyParserError } from './errors.js';

const parsers = new Map<number, ReturnType<typeof express.raw>>();

export function readRawBody(req: Request, res: Response, limit: number): Promise<Buffer> {
  let parse = parsers.get(limit);
  if (!parse) {
    parse = express.raw({ limit, type: () => true });
    parsers.set(limit, parse);
  }
  return new Promise((resolve, reject) => {
    parse(req, res, (err?: unknown) => {
      if (err) return reject(fromBodyParserError(err) ?? err);
      resolve(Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0));
    });
  });
}
