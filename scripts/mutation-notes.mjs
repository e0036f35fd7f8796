// What bench/MUTATION.md says about particular mutants (scripts/mutation-report.mjs reads it).
// A mutant is named by its file, its mutator, the code it replaces and the replacement, never by
// a line number, so a note survives edits around it. Each note is one of:
//   { ..., equivalent: 'why' }   the mutant behaves like the original for every caller: no test can
//                                kill it (the report lists it as a survivor with this reason);
//   { ..., killedBy: 'test name' } a survivor of an earlier run that a test written for it now
//                                kills (the report checks it is killed by a test of that name).
const RL = 'src/core/rate-limiter.ts';
const SWEEP_SIZE = 'this.windows.size > 10_000';
const STALE = 'now - v.start >= this.windowMs';
const MEMORY_ONLY =
  'when the map of clients is swept only changes memory: the sweep drops windows that are over, and a client whose window is over starts a new one on its next request anyway';

export const NOTES = [
  {
    file: RL,
    mutator: 'ConditionalExpression',
    original: '!this.enabled',
    replacement: 'false',
    equivalent: 'the one caller, the rateLimit middleware (src/http/request-context.ts), skips a disabled limiter before it calls take()',
  },
  { file: RL, mutator: 'ConditionalExpression', original: SWEEP_SIZE, replacement: 'true', equivalent: MEMORY_ONLY },
  { file: RL, mutator: 'ConditionalExpression', original: SWEEP_SIZE, replacement: 'false', equivalent: MEMORY_ONLY },
  { file: RL, mutator: 'EqualityOperator', original: SWEEP_SIZE, replacement: 'this.windows.size >= 10_000', equivalent: MEMORY_ONLY },
  { file: RL, mutator: 'EqualityOperator', original: SWEEP_SIZE, replacement: 'this.windows.size <= 10_000', equivalent: MEMORY_ONLY },
  { file: RL, mutator: 'ConditionalExpression', original: STALE, replacement: 'false', equivalent: MEMORY_ONLY },
  {
    file: RL,
    mutator: 'EqualityOperator',
    original: STALE,
    replacement: 'now - v.start > this.windowMs',
    equivalent: 'a window exactly one minute old is over either way: take() starts a new one for it on the next request',
  },
  { file: RL, mutator: 'ConditionalExpression', original: STALE, replacement: 'true', killedBy: 'keeps the count of a client whose minute is not over' },
  {
    file: RL,
    mutator: 'EqualityOperator',
    original: STALE,
    replacement: 'now - v.start < this.windowMs',
    killedBy: 'keeps the count of a client whose minute is not over',
  },
  {
    file: RL,
    mutator: 'ArithmeticOperator',
    original: 'now - v.start',
    replacement: 'now + v.start',
    killedBy: 'keeps the count of a client whose minute is not over',
  },
  { file: RL, mutator: 'BlockStatement', original: '{ this.windows.clear(); }', replacement: '{}', killedBy: 'POST /_emulator/reset forgets the counts' },
  {
    file: 'src/core/utc-days.ts',
    mutator: 'MethodExpression',
    original: '[...days.keys()].sort((a, b) => a - b)',
    replacement: '[...days.keys()]',
    killedBy: 'lists days oldest first even when the items are not in time order',
  },
  {
    file: 'src/core/utc-days.ts',
    mutator: 'ArithmeticOperator',
    original: 'a - b',
    replacement: 'a + b',
    killedBy: 'lists days oldest first even when the items are not in time order',
  },
];

const SIGNER = 'src/webhooks/signer.ts';
const REMEMBER_SMALL = 'body.length <= RECENT_BODY_MAX_CHARS';
const EVICT = 'this.recent.size >= RECENT_SIGNATURES';
const CACHE_ONLY =
  'which signatures are remembered, and for how long, only changes memory and CPU time: RSA-SHA256 with PKCS#1 v1.5 padding is deterministic, so a signature made again is byte for byte the remembered one';
const SCHED = 'src/core/scheduler.ts';
const NEVER_TIED =
  'compare() never returns 0 for two different jobs (each has its own sequence number), so a strict and a non-strict comparison of two heap entries always agree';

NOTES.push(
  { file: SIGNER, mutator: 'ConditionalExpression', original: REMEMBER_SMALL, replacement: 'true', equivalent: CACHE_ONLY },
  { file: SIGNER, mutator: 'EqualityOperator', original: REMEMBER_SMALL, replacement: 'body.length < RECENT_BODY_MAX_CHARS', equivalent: CACHE_ONLY },
  { file: SIGNER, mutator: 'ConditionalExpression', original: EVICT, replacement: 'true', equivalent: CACHE_ONLY },
  { file: SIGNER, mutator: 'ConditionalExpression', original: EVICT, replacement: 'false', equivalent: CACHE_ONLY },
  { file: SIGNER, mutator: 'EqualityOperator', original: EVICT, replacement: 'this.recent.size > RECENT_SIGNATURES', equivalent: CACHE_ONLY },
  { file: SIGNER, mutator: 'EqualityOperator', original: EVICT, replacement: 'this.recent.size < RECENT_SIGNATURES', equivalent: CACHE_ONLY },
  {
    file: SCHED,
    mutator: 'EqualityOperator',
    original: 'compare(h[i]!, h[parent]!) >= 0',
    replacement: 'compare(h[i]!, h[parent]!) > 0',
    equivalent: NEVER_TIED,
  },
  { file: SCHED, mutator: 'EqualityOperator', original: 'compare(h[l]!, h[m]!) < 0', replacement: 'compare(h[l]!, h[m]!) <= 0', equivalent: NEVER_TIED },
  { file: SCHED, mutator: 'EqualityOperator', original: 'compare(h[r]!, h[m]!) < 0', replacement: 'compare(h[r]!, h[m]!) <= 0', equivalent: NEVER_TIED },
  {
    file: SCHED,
    mutator: 'EqualityOperator',
    original: 'compare(this.heap[k]!, this.heap[parent]!) >= 0',
    replacement: 'compare(this.heap[k]!, this.heap[parent]!) > 0',
    equivalent: NEVER_TIED,
  },
);

const IDS = 'src/core/ids.ts';
const STARTS_AT_ZERO = 'the counter is already 0 when the constructor runs (a field initialiser), so calling reset() there changes nothing';
const SAME_STREAM =
  'the bytes are one stream of SHA-256 blocks, consumed in order: drawing one block more than a request needs only leaves more of the same stream for the next request, which gets the bytes it would have got anyway';
const RANDOM_ANYWAY = "the UUID stays a random version-4 UUID: only where its random bytes come from changes (the pool, or uuid's own draw)";

NOTES.push(
  { file: IDS, mutator: 'BlockStatement', original: '{ this.reset(); }', replacement: '{}', equivalent: STARTS_AT_ZERO },
  { file: IDS, mutator: 'ConditionalExpression', original: 'this.poolOffset === this.pool.length', replacement: 'true', equivalent: RANDOM_ANYWAY },
  { file: IDS, mutator: 'ObjectLiteral', original: '{ random: bytes }', replacement: '{}', equivalent: RANDOM_ANYWAY },
  { file: IDS, mutator: 'EqualityOperator', original: 'pool.length < len', replacement: 'pool.length <= len', equivalent: SAME_STREAM },
);

NOTES.push({
  file: 'src/core/rsa-keygen.ts',
  mutator: 'EqualityOperator',
  original: 'r < s',
  replacement: 'r <= s',
  equivalent:
    'the extra squaring computes a^(n-1) mod n, which is never n-1 for an odd n: that would need every prime p of n to have p-1 divisible by 2^(t+1), where 2^t is the power of 2 in n-1, and then so would n-1',
});

const TRANSPORT = 'src/webhooks/transport.ts';
const OUTBOX = 'src/webhooks/outbox.ts';
const DISPATCHER = 'src/webhooks/dispatcher.ts';
const SETTLED_ONCE =
  "finish() only resolves the send's promise, and a promise settles once: a second resolve() is ignored, so skipping or keeping the settled flag changes nothing a caller can see";
const KEY_REPLACED = 'never reuses a signature made with a key that was replaced while it was being made';
const CRASHED = 'logs an attempt that crashed at error level, with the error and the delivery';
const DISPATCH_FAILED = 'the API call that caused it still succeeds, and the log says which event failed and why';
const STOPPED_REDELIVERED = 'sends a delivery that a disabled or deleted webhook stopped: an explicit redelivery still goes to its url';

// A note names a mutant by file, mutator, code and replacement, so where the same code is mutated
// in two places of a file, one note stands for both, and a killedBy note is checked against the
// first of them the report lists. These survivors of the last run are killed by tests, but have no
// note of their own because another mutant of the same file, listed before them, has their name:
// - transport.ts `{ keepAlive: true }` → `{}` and `true` → `false` of the https agent and of the two
//   agents close() makes (the http agent's is listed first): 'keeps the connection alive over TLS
//   too: successive deliveries to an https receiver share a socket', 'after close(), deliveries to
//   an http receiver again share one kept-alive socket', and the same for an https receiver;
// - transport.ts `'error'` → `""` of the answer's error listener (the request's is listed first) and
//   `() => clearTimeout(timer)` → `() => undefined` of that listener: 'an answer whose body the
//   receiver cuts short by closing the connection (the attempt is delivered)';
// - outbox.ts `d.status === 'pending'` → `false` and → `d.status !== 'pending'` in redeliver()
//   (attempt()'s is listed first): 'on a pending delivery, takes the retry it brings forward off the
//   schedule while the redelivery is under way';
// - outbox.ts `d.status !== 'pending'` → `false` in onRetryDue() (restore()'s is listed first):
//   'restore: a retry job left over for a delivery that is already delivered sends nothing';
// - outbox.ts `this.inFlight.has(id)` → `false` in trim() (redeliver()'s is listed first): 'keeps a
//   delivered record whose redelivery is under way, dropping the next oldest one instead'.
NOTES.push(
  {
    file: SIGNER,
    mutator: 'ConditionalExpression',
    original: 'body.length <= RECENT_BODY_MAX_CHARS && this.cachedKid === key.kid',
    replacement: 'true',
    killedBy: KEY_REPLACED,
  },
  {
    file: SIGNER,
    mutator: 'LogicalOperator',
    original: 'body.length <= RECENT_BODY_MAX_CHARS && this.cachedKid === key.kid',
    replacement: 'body.length <= RECENT_BODY_MAX_CHARS || this.cachedKid === key.kid',
    killedBy: KEY_REPLACED,
  },
  { file: SIGNER, mutator: 'ConditionalExpression', original: 'this.cachedKid === key.kid', replacement: 'true', killedBy: KEY_REPLACED },
  { file: TRANSPORT, mutator: 'ConditionalExpression', original: 'settled', replacement: 'false', equivalent: SETTLED_ONCE },
  // The note's name fits every `true` of the file; only the one of `settled = true` survives the tests.
  {
    file: TRANSPORT,
    mutator: 'BooleanLiteral',
    original: 'true',
    replacement: 'false',
    equivalent: `only for the \`true\` of \`settled = true\` in finish() (the keepAlive ones and \`written = true\` are killed by tests): ${SETTLED_ONCE}`,
  },
  { file: TRANSPORT, mutator: 'StringLiteral', original: "'end'", replacement: '""', killedBy: 'an answer read to its end' },
  { file: TRANSPORT, mutator: 'ArrowFunction', original: '() => clearTimeout(timer)', replacement: '() => undefined', killedBy: 'an answer read to its end' },
  {
    file: OUTBOX,
    mutator: 'ConditionalExpression',
    original: "d.status === 'pending'",
    replacement: 'true',
    equivalent:
      'redeliver() on a delivered or failed delivery: finish() cancelled its retry job when it finished, and restore() schedules none for it, so the cancel finds nothing (in every state the emulator makes; a hand-made state document can carry a stray job, which onRetryDue ignores for a finished delivery)',
  },
  {
    file: OUTBOX,
    mutator: 'ArrowFunction',
    original: "(err: unknown) => this.opts.logger?.error({ err, deliveryId: d.id }, 'webhook attempt crashed')",
    replacement: '() => undefined',
    killedBy: CRASHED,
  },
  { file: OUTBOX, mutator: 'ObjectLiteral', original: '{ err, deliveryId: d.id }', replacement: '{}', killedBy: CRASHED },
  { file: OUTBOX, mutator: 'StringLiteral', original: "'webhook attempt crashed'", replacement: '""', killedBy: CRASHED },
  {
    file: OUTBOX,
    mutator: 'ConditionalExpression',
    original: 'this.records.get(d.id) === d',
    replacement: 'true',
    killedBy: 'reset: an attempt it dropped reports no further change of its delivery (the dashboard feed)',
  },
  {
    file: OUTBOX,
    mutator: 'ConditionalExpression',
    original: "'stop' in resolved && trigger === 'redeliver'",
    replacement: 'false',
    killedBy: STOPPED_REDELIVERED,
  },
  { file: OUTBOX, mutator: 'StringLiteral', original: "'stop'", replacement: '""', killedBy: STOPPED_REDELIVERED },
  {
    file: OUTBOX,
    mutator: 'ConditionalExpression',
    original: 'this.records.get(d.id) !== d',
    replacement: 'false',
    killedBy: 'says nothing about a delivery that a reset dropped before its first attempt started',
  },
  {
    file: OUTBOX,
    mutator: 'ConditionalExpression',
    original: 'this.interrupted',
    replacement: 'false',
    killedBy: 'decides nothing afterwards: a due retry whose webhook was disabled meanwhile stays pending, and is stopped after the restart',
  },
  {
    file: OUTBOX,
    mutator: 'ConditionalExpression',
    original: 'result.statusCode === null',
    replacement: 'true',
    killedBy: 'records an answer that came in as the shutdown began as that answer, not as an interruption',
  },
  {
    file: DISPATCHER,
    mutator: 'BlockStatement',
    original: "{ this.logger?.error({ err, event: e.type }, 'webhook dispatch failed'); }",
    replacement: '{}',
    killedBy: DISPATCH_FAILED,
  },
  { file: DISPATCHER, mutator: 'ObjectLiteral', original: '{ err, event: e.type }', replacement: '{}', killedBy: DISPATCH_FAILED },
  { file: DISPATCHER, mutator: 'StringLiteral', original: "'webhook dispatch failed'", replacement: '""', killedBy: DISPATCH_FAILED },
);

/** Printed at the top of bench/MUTATION.md: where the runs stand, in the maintainer's words. */
export const STATUS = [
  'Where this stands: `src/core` and `src/webhooks` have a complete run (every file), each with the tests of its own',
  'folder and the scenarios and integration tests that drive it (`--testFiles`, listed per file below), not the whole',
  'suite: their scores are lower bounds. Both are above the 85 % goal. `src/domain` and `src/http` (84 of the 135 files)',
  'have not been run. At the rates seen on this 2-core machine (one test runner, 4 to 10 mutants a minute, less when',
  'mutants time out), each needs several hours; the whole suite behind every mutant, a day or more.',
];
