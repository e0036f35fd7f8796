// The files a session leaves, behind the signed, expiring links the sessions API and the
// webhooks hand out (checked like the recording downloads): the chat and the transcript as CSV,
// the summary as text. Made from the session record when downloaded.
import { z } from 'zod';
import type { SessionFileKind } from '../../domain/sessions/session-files.js';
import { SESSION_FILE_NAMES, activeTranscriptPath, sessionFilePath } from '../../domain/sessions/session-files.js';
import { route } from '../route.js';
import { checkLink, sendFresh, signedQuery } from './media.routes.js';

const FILES: Record<SessionFileKind, { summary: string; contentType: string }> = {
  chat: { summary: "A session's chat messages (the chat_download_url): CSV", contentType: 'text/csv' },
  transcript: { summary: "A session's transcript (the transcript_download_url): CSV", contentType: 'text/csv' },
  summary: { summary: "A session's summary (the summaryDownloadUrl): text, plain or markdown as the meeting's ai_config asks", contentType: 'text/plain' },
};

function fileRoute(kind: SessionFileKind) {
  const { summary, contentType } = FILES[kind];
  return route({
    method: 'get',
    path: `/media/sessions/{session_id}/${SESSION_FILE_NAMES[kind]}`,
    api: 'media',
    auth: 'none',
    tag: 'Media',
    summary,
    description: 'The link is signed and expires 7 days after it was handed out, on the emulator clock.',
    params: () => z.object({ session_id: z.uuid() }),
    query: signedQuery,
    responses: {
      200: { description: 'The file', contentType },
      403: { description: 'The link expired or its signature is missing or wrong' },
      404: { description: 'The session no longer exists (or has no summary)' },
    },
    handler: ({ deps, params, query, res }) => {
      checkLink(deps, sessionFilePath(params.session_id, kind), query);
      const body = deps.services.sessionHistory.fileContent(params.session_id, kind);
      res.status(200);
      res.setHeader('content-type', `${contentType}; charset=utf-8`);
      res.setHeader('content-disposition', `attachment; filename="${params.session_id}-${SESSION_FILE_NAMES[kind]}"`);
      res.setHeader('content-length', String(Buffer.byteLength(body)));
      res.end(body);
      return undefined;
    },
  });
}

/** The transcript of a LIVE session so far, as the web SDKs read it when a page joins (their active-transcript call hands out the link). */
const activeTranscriptRoute = route({
  method: 'get',
  path: '/media/sessions/{session_id}/active-transcript.csv',
  api: 'media',
  auth: 'none',
  tag: 'Media',
  summary:
    "A session's transcript so far, in the web SDKs' own form: one CSV line per line said (epoch seconds, peer id, user id, custom participant id, name, text), no header",
  description:
    'The link is signed (the SDK gets it from GET /v2/meetings/{meeting_id}/active-transcript on its API host) and expires on the emulator clock. It holds the most recent 500 lines.',
  params: () => z.object({ session_id: z.uuid() }),
  query: signedQuery,
  responses: {
    200: { description: 'The lines', contentType: 'text/csv' },
    403: { description: 'The link expired or its signature is missing or wrong' },
    404: { description: 'The session no longer exists' },
  },
  handler: ({ deps, params, query, res }) => {
    checkLink(deps, activeTranscriptPath(params.session_id), query);
    return sendFresh(res, 'text/csv; charset=utf-8', deps.services.sessionHistory.activeTranscriptContent(params.session_id));
  },
});

export const sessionFileRoutes = [fileRoute('chat'), fileRoute('transcript'), fileRoute('summary'), activeTranscriptRoute];
