/** A note about one mutant, named by its code (see mutation-notes.mjs). */
export interface Note {
  file: string;
  mutator: string;
  original: string;
  replacement: string;
  equivalent?: string;
  killedBy?: string;
}
export const NOTES: Note[];
export const STATUS: string[];
