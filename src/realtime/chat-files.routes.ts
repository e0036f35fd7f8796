// The images and files pages send in chat (domain/sessions/chat-files.ts). The SDKs ask their API
// host where to upload (RealtimeKit: POST /v2/meetings/chat-upload, its answer in snake_case;
// web-core: POST /v1/meetings/genPreSignedUploadUrl, in camelCase), PUT the bytes to the upload
// link with the file's type, then send a chat message naming the read link. Both links are signed
// and expire on the emulator's clock, and point at the host the page asked (the TLS listener's
// api host), so the page's image preview and file download stay offline.
import type { Request } from 'express';
import { z } from 'zod';
import { lazy } from '../core/lazy.js';
import { errors } from '../core/errors.js';
import type { Deps } from '../container.js';
import { CHAT_FILE_LIMITS, IMAGE_TYPES, chatFilePath, chatUploadPath } from '../domain/sessions/chat-files.js';
import type { AuthInfo } from '../http/auth.js';
import { checkLink, signedQuery } from '../http/media/media.routes.js';
import { readRawBody } from '../http/raw-body.js';
import { route } from '../http/route.js';
import { ok } from '../http/v2/mappers.js';

const TAG = 'Web SDK';

/** What the SDKs send: the meeting (roomUUID), the file's name, and an expiry the emulator does not read. */
const uploadRequest = lazy(() =>
  z.object({
    roomUUID: z.string().max(100),
    filename: z.string().min(1).max(CHAT_FILE_LIMITS.nameChars),
    expiry: z.number().optional(),
    viewType: z.string().max(100).optional(),
  }),
);

const refusals = {
  400: { description: "The file's name is empty or longer than 255 characters" },
  403: { description: "roomUUID is not the token's meeting" },
  409: { description: 'The emulator holds the most chat files it keeps' },
};

function links(deps: Deps, auth: AuthInfo, req: Request, body: z.output<ReturnType<typeof uploadRequest>>): { get: string; put: string } {
  if (auth.kind !== 'participant') throw errors.unauthorized();
  const reserved = deps.services.chatFiles.reserve(auth.org.id, auth.participant.id, body.roomUUID, body.filename);
  // The links' origin is the one the page called: its TLS listener, by the host name it knows.
  const origin = `${(req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http'}://${req.headers.host ?? ''}`;
  return { get: `${origin}${reserved.getPath}`, put: `${origin}${reserved.putPath}` };
}

const fileParams = lazy(() => z.object({ file_id: z.uuid(), name: z.string().min(1).max(CHAT_FILE_LIMITS.nameChars) }));

export const chatFileRoutes = [
  route({
    method: 'post',
    path: '/v2/meetings/chat-upload',
    api: 'sdk',
    host: 'api',
    auth: 'participant',
    tag: TAG,
    summary: 'Where RealtimeKit uploads a chat image or file: get_location (to read it) and put_location (to PUT it to)',
    body: uploadRequest,
    responses: { 200: { description: '{ get_location, put_location }' }, ...refusals },
    handler: ({ deps, auth, req, body }) => {
      const l = links(deps, auth, req, body);
      return ok({ get_location: l.get, put_location: l.put });
    },
  }),
  route({
    method: 'post',
    path: '/v1/meetings/genPreSignedUploadUrl',
    api: 'sdk',
    host: 'api',
    auth: 'participant',
    tag: TAG,
    summary: 'Where web-core uploads a chat image or file: getLocation (to read it) and putLocation (to PUT it to)',
    body: uploadRequest,
    responses: { 200: { description: '{ getLocation, putLocation }' }, ...refusals },
    handler: ({ deps, auth, req, body }) => {
      const l = links(deps, auth, req, body);
      return ok({ getLocation: l.get, putLocation: l.put });
    },
  }),
  route({
    method: 'put',
    path: '/media/chat-uploads/{file_id}/{name}',
    api: 'media',
    auth: 'none',
    tag: 'Media',
    summary: "A chat file's bytes, PUT to its upload link (the file's type as Content-Type)",
    description: `At most ${CHAT_FILE_LIMITS.fileBytes / 1024 / 1024} MiB a file and ${CHAT_FILE_LIMITS.totalBytes / 1024 / 1024} MiB in all; the link expires an hour after it was handed out.`,
    params: fileParams,
    query: signedQuery,
    responses: {
      200: { description: 'Stored' },
      403: { description: 'The link expired or its signature is missing or wrong' },
      404: { description: 'No such file (a reset forgets them)' },
      413: { description: 'The file, or all chat files together, would pass the limit' },
    },
    handler: async ({ deps, params, query, req, res }) => {
      checkLink(deps, chatUploadPath(params.file_id, params.name), query);
      const type = req.headers['content-type'];
      if (type !== undefined && type.length > 255) throw errors.badRequest('A Content-Type of at most 255 characters');
      const bytes = await readRawBody(req, res, CHAT_FILE_LIMITS.fileBytes);
      // The request journal keeps a body as parsed: a file's bytes show there as their size.
      req.body = { _binary: true, bytes: bytes.length };
      deps.services.chatFiles.upload(params.file_id, params.name, type, bytes);
      return { status: 200 };
    },
  }),
  route({
    method: 'get',
    path: '/media/chat-files/{file_id}/{name}',
    api: 'media',
    auth: 'none',
    tag: 'Media',
    summary: 'A chat image or file, read back from its link (the get location the SDK put in the message)',
    description: 'The link is signed and expires 7 days after it was handed out, on the emulator clock.',
    params: fileParams,
    query: signedQuery,
    responses: {
      200: { description: 'The bytes, with the type they were uploaded with', contentType: 'application/octet-stream' },
      403: { description: 'The link expired or its signature is missing or wrong' },
      404: { description: 'No such file, or not uploaded yet (a reset forgets them)' },
    },
    handler: ({ deps, params, query, res }) => {
      checkLink(deps, chatFilePath(params.file_id, params.name), query);
      const f = deps.services.chatFiles.download(params.file_id, params.name);
      res.status(200);
      res.setHeader('content-type', f.contentType);
      res.setHeader('content-length', String(f.bytes.length));
      // An ASCII name for every client, and the name itself for those that read RFC 6266's filename*.
      // Served from the emulator's own origin (the dashboard's too): a page's upload never runs
      // there. Images show inline (the kits preview them); anything else downloads, sandboxed either way.
      const disposition = IMAGE_TYPES.includes(f.contentType) ? 'inline' : 'attachment';
      res.setHeader(
        'content-disposition',
        `${disposition}; filename="${f.name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(f.name)}`,
      );
      res.setHeader('x-content-type-options', 'nosniff');
      res.setHeader('content-security-policy', 'sandbox');
      res.end(f.bytes);
      return undefined;
    },
  }),
];
