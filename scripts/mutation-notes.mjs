// What bench/MUTATION.md says about particular mutants (scripts/mutation-report.mjs reads it).
// A mutant is named by its file, its mutator, the code it replaces and the replacement, never by
// a line number, so a note survives edits around it. Each note is one of:
//   { ..., equivalent: 'why' }   the mutant behaves like the original for every caller: no test can
//                                kill it (the report lists it as a survivor with this reason);
//   { ..., killedBy: 'test name' } a survivor of an earlier run that a test written for it now
//                                kills (the report checks it is killed by a test of that name).
export const NOTES = [];
