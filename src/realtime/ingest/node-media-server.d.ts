// The parts of node-media-server's RTMP protocol layer (its src/protocol/rtmp.js) the ingest uses;
// the package ships no types.
declare module 'node-media-server/src/protocol/rtmp.js' {
  export interface RtmpAvPacket {
    codec_type: number;
    dts: number;
    size: number;
    data: Buffer;
  }
  export interface RtmpStreamRequest {
    app: string;
    name: string;
    host: string;
    query: Record<string, unknown>;
  }
  export default class Rtmp {
    onConnectCallback: (req: RtmpStreamRequest) => void;
    onPlayCallback: () => void;
    onPushCallback: () => void;
    onPacketCallback: (packet: RtmpAvPacket) => void;
    onOutputCallback: (buffer: Buffer) => void;
    inChunkSize: number;
    inPackets: Map<number, { header: { length: number } }>;
    parserPacket: { header: { length: number } };
    streamId: number;
    parserData(buffer: Buffer): string | null;
    packetAlloc(): void;
    sendStatusMessage(sid: number, level: string, code: string, description: string): void;
  }
}

declare module 'node-media-server/src/core/logger.js' {
  const logger: { log(message: string, level?: string): void };
  export default logger;
}
