// The session's chat as pure functions: who sees a message (everyone, a private message's
// recipients, a channel's members), what a participant's preset lets them send, whether a
// payload is one the SDKs can show, and a page of the history as the SDKs ask for one. No I/O
// and no clock: the session history service applies them.
import type { ChatPayloadType, Preset, Session, SessionChatChannel, SessionChatMessage } from '../models.js';
import { SESSION_LIMITS } from '../models.js';

/** The SDKs' payload types (socket.chat ChatMessage.payload_type) in their order: TEXT 0, IMAGE 1, FILE 2, CUSTOM 3. */
export const CHAT_PAYLOAD_TYPES: readonly ChatPayloadType[] = ['TEXT_MESSAGE', 'IMAGE_MESSAGE', 'FILE_MESSAGE', 'CUSTOM_MESSAGE'];

export interface ChatContent {
  type: ChatPayloadType;
  payload: string;
}

export function channelOf(s: Session, channelId: string): SessionChatChannel | undefined {
  return s.channels.find((c) => c.id === channelId);
}

/** Whether a participant sees a message: the room's everyone, a private one its recipients, a channel's its members. */
export function sees(s: Session, m: SessionChatMessage, participantId: string): boolean {
  if (m.channelId !== null) return channelOf(s, m.channelId)?.members.includes(participantId) ?? false;
  return m.targets.length === 0 || m.targets.includes(participantId);
}

/** Why a channel's name, picture or visibility (as given, the name trimmed) cannot be kept, or undefined. */
export function channelInputProblem(c: { name: string; pictureUrl?: string | null; visibility?: string }): string | undefined {
  if (c.name.length === 0 || c.name.length > SESSION_LIMITS.channelNameChars)
    return `A channel's name holds 1 to ${SESSION_LIMITS.channelNameChars} characters`;
  if (c.pictureUrl && c.pictureUrl.length > SESSION_LIMITS.channelPictureChars)
    return `A channel's picture link holds at most ${SESSION_LIMITS.channelPictureChars} characters`;
  if (c.visibility && c.visibility.length > SESSION_LIMITS.channelVisibilityChars)
    return `A channel's visibility holds at most ${SESSION_LIMITS.channelVisibilityChars} characters`;
  return undefined;
}

/** Why the payload is not one the SDKs can show (they parse a file's and a custom message's JSON as they draw it), or undefined. */
export function payloadProblem(c: ChatContent): string | undefined {
  if (c.payload.length === 0) return 'A chat message cannot be empty';
  if (c.payload.length > SESSION_LIMITS.textChars) return `A chat message holds at most ${SESSION_LIMITS.textChars} characters (this one ${c.payload.length})`;
  if (c.type === 'FILE_MESSAGE' || c.type === 'CUSTOM_MESSAGE') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(c.payload);
    } catch {
      // Not JSON: `parsed` stays undefined, which the check below refuses.
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      return `A ${c.type === 'FILE_MESSAGE' ? 'file' : 'custom'} message's payload is a JSON object`;
    if (c.type === 'FILE_MESSAGE') {
      const f = parsed as Record<string, unknown>;
      if (typeof f.link !== 'string' || typeof f.name !== 'string' || typeof f.size !== 'number')
        return 'A file message\'s payload is {"link": string, "name": string, "size": number}';
    }
  }
  return undefined;
}

/**
 * Why the participant's preset may not send this message (permissions.chat: public or private,
 * each with can_send, text and files), or undefined. A custom message needs both text and files,
 * as the SDKs ask.
 */
export function permissionProblem(preset: Preset, privately: boolean, type: ChatPayloadType): string | undefined {
  const p = privately ? preset.permissions.chat.private : preset.permissions.chat.public;
  const where = privately ? 'private' : 'public';
  if (!p.can_send) return `Preset ${preset.name} may not send ${where} chat messages (permissions.chat.${where}.can_send is false)`;
  const needsText = type === 'TEXT_MESSAGE' || type === 'CUSTOM_MESSAGE';
  const needsFiles = type !== 'TEXT_MESSAGE';
  if (needsText && !p.text) return `Preset ${preset.name} may not send ${where} text messages (permissions.chat.${where}.text is false)`;
  if (needsFiles && !p.files) return `Preset ${preset.name} may not send ${where} files or images (permissions.chat.${where}.files is false)`;
  return undefined;
}

/** What a page of the history is asked for (the SDKs' paginated chat, search and pinned messages). */
export interface ChatPageQuery {
  /** ms: `reversed` pages end at it (messages up to it, newest first), the others start at it (oldest first). */
  timestamp: number;
  size: number;
  /** Messages of the page to skip first. */
  from: number;
  reversed: boolean;
  /** A channel's messages; otherwise the messages outside channels. */
  channelId?: string;
  pinned?: boolean;
  /** Only the private messages between the viewer and this participant (just the two of them). */
  withUser?: string;
  /** Only the text messages that contain this, whatever the case. */
  search?: string;
}

/** The kits ask for pages of 25; a page asked for with no size gets as many, and none gets more than 500. */
export const CHAT_PAGE = { default: 25, max: 500 } as const;

/** One page of the messages the viewer sees, as asked, and whether more follow in the same direction. */
export function chatPage(s: Session, viewer: string, q: ChatPageQuery): { messages: SessionChatMessage[]; next: boolean } {
  const pair = q.withUser === undefined ? undefined : new Set([viewer, q.withUser]);
  const needle = q.search?.toLowerCase();
  const picked = s.chat.filter((m) => {
    if ((m.channelId ?? undefined) !== q.channelId || !sees(s, m, viewer)) return false;
    if (q.pinned !== undefined && m.pinned !== q.pinned) return false;
    if (pair && !(m.targets.length === pair.size && m.targets.every((t) => pair.has(t)))) return false;
    if (needle !== undefined && !(m.payloadType === 'TEXT_MESSAGE' && m.payload.toLowerCase().includes(needle))) return false;
    return q.reversed ? m.createdAt <= q.timestamp : m.createdAt >= q.timestamp;
  });
  // The history is kept in the order it was sent, which is time order.
  const ordered = q.reversed ? picked.reverse() : picked;
  const size = q.size > 0 ? Math.min(q.size, CHAT_PAGE.max) : CHAT_PAGE.default;
  const from = Math.max(0, q.from);
  return { messages: ordered.slice(from, from + size), next: ordered.length > from + size };
}

/** How many of a channel's messages a member has not read (their own never count). */
export function unreadIn(s: Session, channel: SessionChatChannel, participantId: string): number {
  const read = channel.lastRead[participantId] ?? 0;
  return s.chat.filter((m) => m.channelId === channel.id && m.participantId !== participantId && (m.channelIndex ?? 0) > read).length;
}
