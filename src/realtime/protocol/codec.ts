// The binary side of the web SDK's signalling socket: every frame is a message.v1.SocketMessage
// (event number, request id, payload, metadata) whose payload is one of the SDK's protobuf
// messages. The schema is the .proto files that scripts/sdk-protos.mjs reads out of the SDK's
// bundles (proto/sdk/).
//
// Import this module dynamically (`await import('./protocol/codec.js')`) from the code that serves
// an SDK socket: it loads protobufjs, which nothing else needs, and a start without SDK sockets
// must not pay for it.
//
// Objects use the .proto field names (snake_case, `peer_id`), 64-bit integers come back as
// numbers, and enums as their numbers, the way the SDK itself compares them. Decoding fills
// every plain field with its default (as the SDK's own decoder does) and leaves an absent
// `optional` field or sub-message absent, so presence survives a round trip. Encoding takes any subset of the
// fields.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import protobuf from 'protobufjs';
import { PACKAGE_ROOT } from '../../core/package-info.js';

/** Where the .proto files are: the same folder from src/, dist/src/ and the bundle in dist/bin. */
export const PROTO_DIR = path.join(PACKAGE_ROOT, 'proto', 'sdk');

/** The socket frame. */
export const ENVELOPE_TYPE = 'message.v1.SocketMessage';

/** Bytes that are not the message they claim to be, or an object that cannot be one. Callers catch it; nothing else escapes. */
export class ProtocolError extends Error {
  override readonly name = 'ProtocolError';
  constructor(
    message: string,
    readonly typeName: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface Envelope {
  event: number;
  id?: string;
  payload: Uint8Array;
  metadata?: Uint8Array;
}

export type ProtoObject = Record<string, unknown>;

const TO_OBJECT: protobuf.IConversionOptions = { longs: Number, enums: Number, defaults: true, arrays: true, objects: true };

/**
 * The parsed schema, made on first use and read-only after: a function of the files on disk, so
 * one copy serves every socket (parsing all of them takes tens of milliseconds).
 */
let schema: protobuf.Root | undefined;

function root(): protobuf.Root {
  if (!schema) {
    const loaded = new protobuf.Root();
    for (const file of readdirSync(PROTO_DIR)
      .filter((f) => f.endsWith('.proto'))
      .sort())
      protobuf.parse(readFileSync(path.join(PROTO_DIR, file), 'utf8'), loaded, { keepCase: true });
    loaded.resolveAll();
    schema = loaded;
  }
  return schema;
}

function type(typeName: string): protobuf.Type {
  const schema = root();
  try {
    return schema.lookupType(typeName);
  } catch (cause) {
    throw new ProtocolError(`no message type ${typeName}`, typeName, { cause });
  }
}

/**
 * protobufjs writes an absent sub-message as null; the SDK's decoder leaves it out, and so does
 * this one (a field is either there or not, never null).
 */
function withoutNulls(o: ProtoObject): ProtoObject {
  for (const [key, value] of Object.entries(o)) {
    if (value === null) {
      delete o[key];
    } else if (Array.isArray(value)) {
      for (const item of value) if (isMessage(item)) withoutNulls(item);
    } else if (isMessage(value)) {
      withoutNulls(value);
    }
  }
  return o;
}

function isMessage(value: unknown): value is ProtoObject {
  return typeof value === 'object' && value !== null && !(value instanceof Uint8Array);
}

/** The bytes as the message `typeName` (e.g. `socket.room.JoinRoomRequest`). */
export function decode(typeName: string, bytes: Uint8Array): ProtoObject {
  const t = type(typeName);
  try {
    return withoutNulls(t.toObject(t.decode(bytes), TO_OBJECT));
  } catch (cause) {
    throw new ProtocolError(`malformed ${typeName}: ${(cause as Error).message}`, typeName, { cause });
  }
}

/** The object (any subset of the fields, .proto names) as the message `typeName`. */
export function encode(typeName: string, object: ProtoObject): Uint8Array {
  const t = type(typeName);
  try {
    return t.encode(t.fromObject(object)).finish();
  } catch (cause) {
    throw new ProtocolError(`cannot encode ${typeName}: ${(cause as Error).message}`, typeName, { cause });
  }
}

export function decodeEnvelope(bytes: Uint8Array): Envelope {
  const o = decode(ENVELOPE_TYPE, bytes);
  const envelope: Envelope = { event: o.event as number, payload: (o.payload as Uint8Array | undefined) ?? new Uint8Array(0) };
  if (o.id !== undefined) envelope.id = o.id as string;
  if (o.metadata !== undefined) envelope.metadata = o.metadata as Uint8Array;
  return envelope;
}

export function encodeEnvelope(envelope: Envelope): Uint8Array {
  return encode(ENVELOPE_TYPE, { ...envelope });
}

/** A message's fields as the caller reads them: `decode` with the shape the .proto gives the type. */
export function decodeAs<T>(typeName: string, bytes: Uint8Array): T {
  return decode(typeName, bytes) as unknown as T;
}
