// Participant tokens: RS256 JWTs with claims orgId, meetingId, participantId, presetId, iat,
// exp; 100 days on the emulator's clock (docs/api-v2.md, "Participant tokens").
// Tokens are signed with node:crypto directly: an RS256 JWT is two base64url JSON segments and
// one PKCS#1 v1.5 signature, and jose's WebCrypto path (a key conversion and a thread-pool hop per
// token) made adding a participant cost several times one signature. Any JWT library verifies
// them (the tests verify with jose). jose still verifies incoming tokens, loaded on first use:
// it is a fifth of the start-up time, and many runs verify none.
import { sign as rsaSign } from 'node:crypto';
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

  // Async: callers await it, as they did when signing went through jose's WebCrypto path.
  async sign(claims: Omit<ParticipantClaims, 'iat' | 'exp'>, nowMs: number): Promise<string> {
    const iat = Math.floor(nowMs / 1000);
    const key = this.key;
    const header = { alg: 'RS256', typ: 'JWT', kid: key.kid };
    const payload = {
      orgId: claims.orgId,
      meetingId: claims.meetingId,
      participantId: claims.participantId,
      presetId: claims.presetId,
      iat,
      exp: iat + TOKEN_LIFETIME_SECONDS,
    };
    const input = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(payload))}`;
    return `${input}.${rsaSign('sha256', Buffer.from(input, 'ascii'), key.privateKey).toString('base64url')}`;
  }

  /** The token's claims, or 401 (expired on the emulator clock, forged, wrong alg, malformed). */
  async verify(token: string, nowMs: number): Promise<ParticipantClaims> {
    try {
      const { decodeProtectedHeader, jwtVerify } = await jose();
      const header = decodeProtectedHeader(token);
      // Stryker disable next-line StringLiteral,ConditionalExpression: jwtVerify right after refuses any alg but RS256 itself, and the catch turns every error into the same 401.
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
        // Stryker disable next-line StringLiteral: the catch turns every error here into the same 401, so its message is never seen.
        throw new Error('claims');
      }
      return { orgId, meetingId, participantId, presetId, iat, exp };
    } catch {
      throw errors.unauthorized('Invalid or expired participant token');
    }
  }
}

function base64url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}
