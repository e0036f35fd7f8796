// Comparing a credential a client sent with the one expected, in constant time whatever the
// lengths: both are hashed first, so the comparison neither stops early nor tells the length.
import { createHash, timingSafeEqual } from 'node:crypto';

export function sameSecret(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}
