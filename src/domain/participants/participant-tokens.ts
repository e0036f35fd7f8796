// Participant tokens: RS256 JWTs with claims orgId, meetingId, participantId, presetId, iat,
// exp; 100 days on the emulator's clock (docs/api-v2.md, "Participant tokens").
// jose is loaded on first use: it is a fifth of the start-up time, and many runs sign nothing.
const jose = () => import('jose');
import type { SigningKey } from '../../core/keys.js';
import { errors } from '../../core/errors.js';

export const TOKEN_LIFETIME_SECONDS = 100 * 24 * 60 * 60;

export interface ParticipantClaims {
  orgId: string;
  meetingId: string;
  participantId: string;
  presetId: string;
  iat: number;
  exp: number;
}

export class ParticipantTokens {
  /** The key is looked up on every use: it is made on first use and a state import replaces it. */
  constructor(private readonly currentKey: () => SigningKey) {}

  private get key(): SigningKey {
    return this.currentKey();
  }

  jwks(): { keys: SigningKey['publicJwk'][] } {
    return { keys: [this.key.publicJwk] };
  }

  async sign(claims: Omit<ParticipantClaims, 'iat' | 'exp'>, nowMs: number): Promise<string> {
    const iat = Math.floor(nowMs / 1000);
    const { SignJWT } = await jose();
    return new SignJWT({ orgId: claims.orgId, meetingId: claims.meetingId, participantId: claims.participantId, presetId: claims.presetId })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: this.key.kid })
      .setIssuedAt(iat)
      .setExpirationTime(iat + TOKEN_LIFETIME_SECONDS)
      .sign(this.key.privateKey);
  }

  /** The token's claims, or 401 (expired on the emulator clock, forged, wrong alg, malformed). */
  async verify(token: string, nowMs: number): Promise<ParticipantClaims> {
    try {
      const { decodeProtectedHeader, jwtVerify } = await jose();
      const header = decodeProtectedHeader(token);
      if (header.alg !== 'RS256') throw new Error('alg');
      const { payload } = await jwtVerify(token, this.key.publicKey, { algorithms: ['RS256'], currentDate: new Date(nowMs) });
      const { orgId, meetingId, participantId, presetId, iat, exp } = payload as Record<string, unknown>;
      if (
        typeof orgId !== 'string' ||
        typeof meetingId !== 'string' ||
        typeof participantId !== 'string' ||
        typeof presetId !== 'string' ||
        typeof iat !== 'number' ||
        typeof exp !== 'number'
      ) {
        throw new Error('claims');
      }
      return { orgId, meetingId, participantId, presetId, iat, exp };
    } catch {
      throw errors.unauthorized('Invalid or expired participant token');
    }
  }
}
