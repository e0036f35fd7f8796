// The SRTP cipher of the installed werift, which carries a patch (patches/): its AES-CM keystream
// comes from one AES-128-ECB cipher per session key, made with the session, instead of an
// aes-128-ctr cipher made for every packet. Checked byte for byte, in werift's ES module build (what
// the media plane imports) and in its CommonJS build, against RFC 3711 written out here with Node's
// own aes-128-ctr and HMAC-SHA1: RTP packets of many sizes, sequence numbers and rollover counters,
// SRTCP packets with small and large indexes, and the RFC's own AES-CM keystream.
import { createCipheriv, createHmac } from 'node:crypto';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import * as esm from 'werift';

type Werift = typeof esm;
const cjs = createRequire(import.meta.url)('werift') as Werift;

/** What the cipher is given by werift's contexts (the methods of its CipherAesCtr). */
interface Cipher {
  encryptRtp(header: InstanceType<Werift['RtpHeader']>, payload: Buffer, rolloverCounter: number): Buffer;
  decryptRtp(packet: Buffer, rolloverCounter: number): [Buffer, InstanceType<Werift['RtpHeader']>];
  encryptRTCP(rtcp: Buffer, srtcpIndex: number): Buffer;
  decryptRTCP(packet: Buffer): [Buffer, unknown];
}
type CipherClass = new (srtpKey: Buffer, srtpSalt: Buffer, srtcpKey: Buffer, srtcpSalt: Buffer, srtpAuth: Buffer, srtcpAuth: Buffer) => Cipher;

/** A deterministic byte pattern. */
function bytes(n: number, seed: number): Buffer {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = (i * 151 + seed * 37 + 11) & 0xff;
  return b;
}

const keys = {
  srtpKey: bytes(16, 1),
  srtpSalt: bytes(14, 2),
  srtcpKey: bytes(16, 3),
  srtcpSalt: bytes(14, 4),
  srtpAuth: bytes(20, 5),
  srtcpAuth: bytes(20, 6),
};

/** RFC 3711, 4.1.1: IV = (salt · 2^16) XOR (SSRC · 2^64) XOR (index · 2^16), index = ROC · 2^16 + SEQ. */
function iv(salt: Buffer, ssrc: number, index: bigint): Buffer {
  const v = (BigInt(`0x${salt.toString('hex')}`) << 16n) ^ (BigInt(ssrc) << 64n) ^ (index << 16n);
  return Buffer.from(v.toString(16).padStart(32, '0'), 'hex');
}
const aesCm = (key: Buffer, salt: Buffer, ssrc: number, index: bigint, data: Buffer) => createCipheriv('aes-128-ctr', key, iv(salt, ssrc, index)).update(data);
const tag = (key: Buffer, ...parts: Buffer[]) => createHmac('sha1', key).update(Buffer.concat(parts)).digest().subarray(0, 10);
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};

/** An SRTP packet as RFC 3711 makes it: header, encrypted payload, the HMAC of both and the ROC. */
function referenceSrtp(headerBytes: Buffer, payload: Buffer, ssrc: number, seq: number, roc: number): Buffer {
  const enc = aesCm(keys.srtpKey, keys.srtpSalt, ssrc, (BigInt(roc) << 16n) | BigInt(seq), payload);
  return Buffer.concat([headerBytes, enc, tag(keys.srtpAuth, headerBytes, enc, u32(roc))]);
}

/** An SRTCP packet as RFC 3711 makes it: the first 8 bytes clear, the rest encrypted, E flag and index, tag. */
function referenceSrtcp(rtcp: Buffer, index: number): Buffer {
  const ssrc = rtcp.readUInt32BE(4);
  const enc = aesCm(keys.srtcpKey, keys.srtcpSalt, ssrc, BigInt(index), rtcp.subarray(8));
  const body = Buffer.concat([rtcp.subarray(0, 8), enc, u32((index | 0x80000000) >>> 0)]);
  return Buffer.concat([body, tag(keys.srtcpAuth, body)]);
}

function cipherOf(w: Werift): { cipher: Cipher; Cipher: CipherClass } {
  const session = new w.SrtpSession({
    keys: { localMasterKey: bytes(16, 7), localMasterSalt: bytes(14, 8), remoteMasterKey: bytes(16, 9), remoteMasterSalt: bytes(14, 10) },
    profile: w.ProtectionProfileAes128CmHmacSha1_80,
  });
  const Cipher = session.localContext.cipher.constructor as CipherClass;
  return { cipher: new Cipher(keys.srtpKey, keys.srtpSalt, keys.srtcpKey, keys.srtcpSalt, keys.srtpAuth, keys.srtcpAuth), Cipher };
}

describe.each([
  ['ES module build', esm],
  ['CommonJS build', cjs],
])("werift's SRTP cipher (%s)", (_build, w) => {
  it('is the patched one: a keystream per session key, made with the session', () => {
    const { cipher } = cipherOf(w);
    expect(cipher).toHaveProperty('srtpKeystream');
    expect(cipher).toHaveProperty('srtcpKeystream');
  });

  it('gives the AES-CM keystream of RFC 3711 (B.2)', () => {
    const { Cipher } = cipherOf(w);
    const key = Buffer.from('2b7e151628aed2a6abf7158809cf4f3c', 'hex');
    const salt = Buffer.from('f0f1f2f3f4f5f6f7f8f9fafbfcfd', 'hex');
    const cipher = new Cipher(key, salt, key, salt, keys.srtpAuth, keys.srtcpAuth);
    const header = new w.RtpHeader({ payloadType: 96, sequenceNumber: 0, timestamp: 0, ssrc: 0 });
    const packet = cipher.encryptRtp(header, Buffer.alloc(48), 0);
    expect(packet.subarray(12, 60).toString('hex')).toBe('e03ead0935c95e80e166b16dd92b4eb4d23513162b02d0f72a43a2fe4a5f97ab41e95b3bb0a2e8dd477901e4fca894c0');
  });

  it('encrypts and decrypts RTP byte for byte as RFC 3711 says, for many sizes, sequence numbers and rollover counters', () => {
    const { cipher } = cipherOf(w);
    const sizes = [0, 1, 15, 16, 17, 31, 33, 100, 160, 1199, 1200, 1201, 1500, 9000, 65_000];
    const seqs = [0, 1, 0x7fff, 0xfffe, 0xffff];
    const rocs = [0, 1, 0xffff, 0x10000, 0x7fffffff, 0xffffffff];
    let checked = 0;
    for (const size of sizes)
      for (const seq of seqs)
        for (const roc of rocs) {
          const ssrc = (0x9e3779b9 * (size + seq + 1)) >>> 0;
          const header = new w.RtpHeader({
            payloadType: 111,
            sequenceNumber: seq,
            timestamp: (size * 960) >>> 0,
            ssrc,
            marker: size % 2 === 0,
            extension: true,
            extensionProfile: 0xbede,
            extensions: [
              { id: 1, payload: Buffer.from('0') },
              { id: 3, payload: Buffer.from([seq >> 8, seq & 0xff]) },
            ],
          });
          const headerBytes = header.serialize(header.serializeSize);
          const payload = bytes(size, seq ^ roc);
          const expected = referenceSrtp(headerBytes, payload, ssrc, seq, roc);
          const packet = cipher.encryptRtp(header, payload, roc);
          expect(packet.equals(expected), `size ${size}, seq ${seq}, roc ${roc}`).toBe(true);
          // Decrypted from a buffer at an odd offset too: the keystream is XORed a byte at a time there.
          const odd = Buffer.concat([Buffer.alloc(1), expected]).subarray(1);
          for (const input of [expected, odd]) {
            const [clear, parsed] = cipher.decryptRtp(input, roc);
            expect(clear.equals(Buffer.concat([headerBytes, payload])), `decrypt size ${size}, seq ${seq}, roc ${roc}`).toBe(true);
            expect(parsed.sequenceNumber).toBe(seq);
          }
          checked++;
        }
    expect(checked).toBe(sizes.length * seqs.length * rocs.length);
  });

  it('refuses an RTP packet whose payload or tag was changed, or that is decrypted with another rollover counter', () => {
    const { cipher } = cipherOf(w);
    const header = new w.RtpHeader({ payloadType: 96, sequenceNumber: 77, timestamp: 1, ssrc: 42 });
    const packet = cipher.encryptRtp(header, bytes(1200, 9), 3);
    for (const at of [20, packet.length - 1]) {
      const changed = Buffer.from(packet);
      changed[at]! ^= 1;
      expect(() => cipher.decryptRtp(changed, 3)).toThrow(w.SrtpAuthenticationError);
    }
    expect(() => cipher.decryptRtp(packet, 4)).toThrow(w.SrtpAuthenticationError);
    expect(cipher.decryptRtp(packet, 3)[0].subarray(12).equals(bytes(1200, 9))).toBe(true);
  });

  it('encrypts and decrypts SRTCP byte for byte as RFC 3711 says, for small and large indexes', () => {
    const { cipher } = cipherOf(w);
    for (const size of [8, 28, 52, 100, 1000])
      for (const index of [0, 1, 0xffff, 0x10000, 0x12345678, 0x7ffffffe]) {
        // A sender report's header (version 2, PT 200) with its SSRC, then its body.
        const rtcp = Buffer.concat([Buffer.from([0x80, 200, 0, (size >> 2) - 1]), u32(0x1a2b3c4d + size), bytes(size - 8, index & 0xff)]);
        const expected = referenceSrtcp(rtcp, index);
        expect(cipher.encryptRTCP(rtcp, index).equals(expected), `size ${size}, index ${index}`).toBe(true);
        const [clear] = cipher.decryptRTCP(expected);
        expect(clear.equals(rtcp), `decrypt size ${size}, index ${index}`).toBe(true);
      }
  });

  it('keeps the sessions apart: each context its own keystream, packets of one session interleaved with another', () => {
    const a = new w.SrtpSession({
      keys: { localMasterKey: bytes(16, 20), localMasterSalt: bytes(14, 21), remoteMasterKey: bytes(16, 22), remoteMasterSalt: bytes(14, 23) },
      profile: w.ProtectionProfileAes128CmHmacSha1_80,
    });
    const b = new w.SrtpSession({
      keys: { localMasterKey: bytes(16, 22), localMasterSalt: bytes(14, 23), remoteMasterKey: bytes(16, 20), remoteMasterSalt: bytes(14, 21) },
      profile: w.ProtectionProfileAes128CmHmacSha1_80,
    });
    // From 65 500: the sequence wraps and the rollover counter moves on both sides.
    for (let i = 0; i < 100; i++) {
      const seq = (65_500 + i) & 0xffff;
      const toB = a.encrypt(bytes(1200, i), new w.RtpHeader({ payloadType: 96, sequenceNumber: seq, timestamp: i, ssrc: 1 }));
      const toA = b.encrypt(bytes(100, i), new w.RtpHeader({ payloadType: 111, sequenceNumber: seq, timestamp: i, ssrc: 2 }));
      expect(b.decrypt(toB).subarray(12).equals(bytes(1200, i))).toBe(true);
      expect(a.decrypt(toA).subarray(12).equals(bytes(100, i))).toBe(true);
    }
  });
});
