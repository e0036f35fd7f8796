// V8 keeps a string built by concatenation as a tree of "cons strings" for as long as it lives
// (a UUID from node:crypto or the uuid package is ~20 nodes, ~600 bytes). Ids and file names
// that the store keeps are flattened once, so a stored resource costs what its characters cost.

/** A flat copy of an ASCII string (ids, tokens, generated file names — never user text). */
export function flat(ascii: string): string {
  return Buffer.from(ascii, 'latin1').toString('latin1');
}
