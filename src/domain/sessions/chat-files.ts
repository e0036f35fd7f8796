// The images and files pages send in chat. The SDKs ask their API host where to upload a file (a
// pair of links: one to PUT its bytes to, one to read them back), upload, then send a chat
// message naming the read link. The emulator keeps the bytes in memory, bounded per file and in
// all, and serves them back behind signed links on the host the page asked (the TLS listener), so
// a kit previews an image and downloads a file offline. Not part of a state export: a reset, an
// import and an organization's reset drop them.
import { ApiError, errors } from '../../core/errors.js';
import { orgData, type DomainContext } from '../context.js';
import type { MediaLinks } from '../media/media-links.js';
import type { OrgMember } from '../organizations/org-member.js';

const MIB = 1024 * 1024;

/** Emulator limits (docs/limits-and-decisions.md): bytes of one file, bytes of all, files (uploaded or awaited) in all. */
export const CHAT_FILE_LIMITS = { fileBytes: 10 * MIB, totalBytes: 100 * MIB, files: 1000, nameChars: 255 } as const;

/** The images the SDKs send as images (they send anything else as a file). */
export const IMAGE_TYPES: readonly string[] = ['image/gif', 'image/jpeg', 'image/png'];

/** How long the link to upload to is good for, and the link to read the file back (emulator clock). */
export const CHAT_UPLOAD_LINK_MS = 60 * 60 * 1000;
export const CHAT_FILE_LINK_MS = 7 * 24 * 60 * 60 * 1000;

export interface ChatFile {
  id: string;
  orgId: string;
  meetingId: string;
  participantId: string;
  name: string;
  /** As the upload declared it; null until uploaded. */
  contentType: string | null;
  bytes: Buffer | null;
  createdAt: number;
}

/** Where a file goes and where it is read from: paths with their signed queries, for the host the page asked. */
export interface UploadLinks {
  id: string;
  putPath: string;
  getPath: string;
}

export function chatUploadPath(id: string, name: string): string {
  return `/media/chat-uploads/${id}/${encodeURIComponent(name)}`;
}

export function chatFilePath(id: string, name: string): string {
  return `/media/chat-files/${id}/${encodeURIComponent(name)}`;
}

export class ChatFilesService implements OrgMember {
  private readonly files = new Map<string, ChatFile>();
  private held = 0;

  constructor(
    private readonly ctx: DomainContext,
    private readonly media: MediaLinks,
  ) {}

  /** Forgets every file (a reset or an import). */
  reset(): void {
    this.files.clear();
    this.held = 0;
  }

  /** Forgets an organization's files (its reset: its meetings are gone). */
  resetOrg(orgId: string): void {
    for (const [id, f] of this.files)
      if (f.orgId === orgId) {
        this.held -= f.bytes?.length ?? 0;
        this.files.delete(id);
      }
  }

  counts(): { files: number; bytes: number } {
    let uploaded = 0;
    for (const f of this.files.values()) if (f.bytes) uploaded++;
    return { files: uploaded, bytes: this.held };
  }

  /**
   * A participant asks where to upload a file for their meeting (`roomUuid`, the meeting id the
   * SDK sends): another meeting's is refused (403), as is a name the links cannot carry.
   */
  reserve(orgId: string, participantId: string, roomUuid: string, filename: string): UploadLinks {
    const participant = orgData(this.ctx, orgId).participants.get(participantId);
    if (!participant) throw errors.notFound('participant', participantId);
    if (roomUuid !== participant.meetingId)
      throw errors.forbidden(`This participant token is for meeting ${participant.meetingId}; it cannot upload files for ${roomUuid || 'no meeting'}`);
    if (filename.length === 0 || filename.length > CHAT_FILE_LIMITS.nameChars)
      throw errors.badRequest(`A file's name holds 1 to ${CHAT_FILE_LIMITS.nameChars} characters`);
    if (this.files.size >= CHAT_FILE_LIMITS.files) this.forgetUnusedReservations();
    if (this.files.size >= CHAT_FILE_LIMITS.files)
      throw errors.conflict(`The emulator holds ${CHAT_FILE_LIMITS.files} chat files, the most it keeps; a reset frees them`);
    const now = this.ctx.clock.now();
    const id = this.ctx.ids.uuid();
    this.files.set(id, { id, orgId, meetingId: participant.meetingId, participantId, name: filename, contentType: null, bytes: null, createdAt: now });
    return {
      id,
      putPath: this.media.signedPath(chatUploadPath(id, filename), now + CHAT_UPLOAD_LINK_MS),
      getPath: this.media.signedPath(chatFilePath(id, filename), now + CHAT_FILE_LINK_MS),
    };
  }

  /** The bytes of a reserved file (its upload link checked by the route): once more replaces them. */
  upload(id: string, name: string, contentType: string | undefined, bytes: Buffer): ChatFile {
    const f = this.reserved(id, name);
    if (bytes.length > CHAT_FILE_LIMITS.fileBytes) throw errors.payloadTooLarge(`${CHAT_FILE_LIMITS.fileBytes / MIB} MiB`);
    const after = this.held - (f.bytes?.length ?? 0) + bytes.length;
    if (after > CHAT_FILE_LIMITS.totalBytes)
      throw new ApiError(
        413,
        'PAYLOAD_TOO_LARGE',
        `The emulator holds at most ${CHAT_FILE_LIMITS.totalBytes / MIB} MiB of chat files (${this.held} bytes now); a reset frees them`,
      );
    const next: ChatFile = { ...f, contentType: contentType ?? 'application/octet-stream', bytes };
    this.files.set(id, next);
    this.held = after;
    return next;
  }

  /**
   * A file a scripted participant sends (the control API): reserved and uploaded in one step, with
   * the same limits as a page's upload. The links are paths; the caller gives them an origin.
   */
  store(orgId: string, participantId: string, filename: string, contentType: string | undefined, bytes: Buffer): UploadLinks {
    const participant = orgData(this.ctx, orgId).participants.get(participantId);
    if (!participant) throw errors.notFound('participant', participantId);
    const links = this.reserve(orgId, participantId, participant.meetingId, filename);
    try {
      this.upload(links.id, filename, contentType, bytes);
    } catch (err) {
      this.drop(links.id);
      throw err;
    }
    return links;
  }

  /** Forgets reservations whose upload link expired with nothing uploaded: they hold a place, and never a file. */
  private forgetUnusedReservations(): void {
    const now = this.ctx.clock.now();
    for (const [id, f] of this.files) if (f.bytes === null && f.createdAt + CHAT_UPLOAD_LINK_MS <= now) this.files.delete(id);
  }

  /** Forgets one file (a message that was to link it was refused). */
  drop(id: string): void {
    const f = this.files.get(id);
    if (!f) return;
    this.held -= f.bytes?.length ?? 0;
    this.files.delete(id);
  }

  /** An uploaded file, to serve (its read link checked by the route). */
  download(id: string, name: string): ChatFile & { bytes: Buffer; contentType: string } {
    const f = this.reserved(id, name);
    if (!f.bytes || f.contentType === null) throw errors.notFoundMessage(`Chat file ${id} has not been uploaded`);
    return f as ChatFile & { bytes: Buffer; contentType: string };
  }

  /**
   * Why a chat message may not link this (an image's link, a file's `link`), or undefined: a file
   * the emulator holds must be one of the meeting's and uploaded, and an image one of the types the
   * SDKs send as images. Links elsewhere are the page's business.
   */
  linkProblem(link: string, meetingId: string, image: boolean): ApiError | undefined {
    let pathname: string;
    try {
      pathname = new URL(link).pathname;
    } catch {
      return image ? errors.badRequest("An image message's payload is the link to the image") : undefined;
    }
    const match = /^\/media\/chat-files\/([0-9a-f-]{36})\/([^/]+)$/.exec(pathname);
    if (!match) return undefined;
    const f = this.files.get(match[1]!);
    // The file's own name, as its link carries it: under another name the link would not read it.
    if (!f || pathname !== chatFilePath(f.id, f.name)) return errors.notFoundMessage(`No chat file found with id ${match[1]!}`);
    if (f.meetingId !== meetingId) return errors.forbidden(`Chat file ${f.id} was uploaded for another meeting`);
    if (!f.bytes) return errors.badRequest(`Chat file ${f.id} has not been uploaded yet`);
    if (image && !IMAGE_TYPES.includes(f.contentType ?? ''))
      return errors.badRequest(`An image message links a GIF, JPEG or PNG image; ${f.name} is ${f.contentType ?? 'of no type'}`);
    return undefined;
  }

  /**
   * The uploaded file a link names (`…/media/chat-files/{id}/{name}`, whatever its host), or
   * undefined for a link elsewhere, to a file not uploaded, or one this emulator does not hold.
   */
  fileOfLink(link: string): (ChatFile & { bytes: Buffer }) | undefined {
    let pathname: string;
    try {
      pathname = new URL(link).pathname;
    } catch {
      return undefined;
    }
    const match = /^\/media\/chat-files\/([0-9a-f-]{36})\/([^/]+)$/.exec(pathname);
    const f = match ? this.files.get(match[1]!) : undefined;
    if (!f?.bytes || pathname !== chatFilePath(f.id, f.name)) return undefined;
    return f as ChatFile & { bytes: Buffer };
  }

  private reserved(id: string, name: string): ChatFile {
    const f = this.files.get(id);
    if (!f || f.name !== name) throw errors.notFoundMessage(`No chat file found with id ${id}`);
    return f;
  }
}
