// The notes bench/MUTATION.md prints about particular mutants (scripts/mutation-notes.mjs). The
// report gives a mutant the first note whose file, mutator and code match it (whitespace aside),
// so a second note with the same name would never be read and would show as "mutant not found".
import { describe, expect, it } from 'vitest';
import { NOTES } from '../../scripts/mutation-notes.mjs';
import { mutantKey } from '../../scripts/mutation-store.mjs';

describe('mutation notes', () => {
  it('name each mutant once, and say either why it is equivalent or which test kills it', () => {
    const names = NOTES.map((n) => mutantKey(n.file, n.mutator, n.original, n.replacement));
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
    expect(NOTES.filter((n) => Boolean(n.equivalent) === Boolean(n.killedBy))).toEqual([]);
  });
});
