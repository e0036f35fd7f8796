// What bench/MUTATION.md says about particular mutants (scripts/mutation-report.mjs reads it).
// A mutant is named by its file, its mutator, the code it replaces and the replacement, never by
// a line number, so a note survives edits around it. Each note is one of:
//   { ..., equivalent: 'why' }   the mutant behaves like the original for every caller: no test can
//                                kill it (the report lists it as a survivor with this reason);
//   { ..., killedBy: 'test name' } a survivor of an earlier run that a test written for it now
//                                kills (the report checks it no longer survives, and names the
//                                test Stryker stopped at when that is another one);
//   { ..., killedBy: 'test name', outOfReach: 'why' } a mutant Stryker cannot switch on (code
//                                that runs when another module loads, once per test file): the
//                                named test kills it when it is applied to the source by hand,
//                                which `node scripts/mutation-by-hand.mjs` does for each such note.
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

const HEAP_HOLE = 'runs the other jobs in time order, each at its own time, after one is cancelled';
const TIMER_CLEARED = 'clearTimeout(undefined) does nothing, so clearing the timer without first checking that one is armed changes nothing';

NOTES.push(
  {
    file: SCHED,
    mutator: 'ConditionalExpression',
    original: 'job.at > this.clock.now()',
    replacement: 'true',
    killedBy: 'runs a job whose time has already passed at the current time, never moving the clock back',
  },
  {
    file: SCHED,
    mutator: 'EqualityOperator',
    original: 'job.at > this.clock.now()',
    replacement: 'job.at >= this.clock.now()',
    killedBy: 'an advance by 0 on a real clock sped up 1.5 times runs the job due that millisecond and leaves the clock running as before',
  },
  {
    file: SCHED,
    mutator: 'ConditionalExpression',
    original: 'target > this.clock.now()',
    replacement: 'true',
    killedBy: 'leaves the clock where it is when asked to advance to a time it has already passed',
  },
  {
    file: SCHED,
    mutator: 'ConditionalExpression',
    original: 'job?.kind === kind.kind',
    replacement: 'true',
    killedBy: 'finds, reports and cancels nothing through another kind whose jobs are named the same way',
  },
  {
    file: SCHED,
    mutator: 'ConditionalExpression',
    original: 'jobs.length > 0',
    replacement: 'false',
    killedBy: 'tells its listeners when cancelOrg or cancelKind dropped jobs',
  },
  { file: SCHED, mutator: 'ConditionalExpression', original: 'k > 0', replacement: 'false', killedBy: HEAP_HOLE },
  { file: SCHED, mutator: 'ArithmeticOperator', original: 'k - 1', replacement: 'k + 1', killedBy: HEAP_HOLE },
  {
    file: SCHED,
    mutator: 'ConditionalExpression',
    original: 'compare(this.heap[k]!, this.heap[parent]!) >= 0',
    replacement: 'true',
    killedBy: HEAP_HOLE,
  },
  {
    file: SCHED,
    mutator: 'BooleanLiteral',
    original: 'false',
    replacement: 'true',
    equivalent:
      'a driver that begins stopped behaves the same once started: the one caller (src/runtime.ts) calls start() on the next line after constructing it, with nothing in between that could change the scheduler, and start() sets stopped to false before it arms the timer',
  },
  { file: SCHED, mutator: 'ConditionalExpression', original: 'this.timer', replacement: 'true', equivalent: TIMER_CLEARED },
);

const CLOCK = 'src/core/clock.ts';
const KEY_PINNED = 'the derivation itself gives the key it has always given for a fixed byte stream, drawing the same bytes';

NOTES.push(
  {
    file: CLOCK,
    mutator: 'ConditionalExpression',
    original: 'ms !== lastIsoMs',
    replacement: 'true',
    equivalent:
      'toIso keeps the last time it wrote out only to save the work: writing the same time again gives the same text, and a time that cannot be written (NaN) throws either way, as NaN equals nothing',
  },
  {
    file: CLOCK,
    mutator: 'ArithmeticOperator',
    original: 'Math.floor(Date.now() / 1000) * 1000',
    replacement: 'Math.floor(Date.now() / 1000) / 1000',
    killedBy: 'realNowWholeSecond is the wall clock cut to its whole second, never ahead of it',
  },
  {
    file: CLOCK,
    mutator: 'ArithmeticOperator',
    original: 'Date.now() / 1000',
    replacement: 'Date.now() * 1000',
    killedBy: 'realNowWholeSecond is the wall clock cut to its whole second, never ahead of it',
  },
  {
    file: CLOCK,
    mutator: 'ArrowFunction',
    original: '(resolve) => setTimeout(resolve, ms)',
    replacement: '() => undefined',
    killedBy: 'realSleep resolves after the time asked for, and not before',
  },
  {
    file: IDS,
    mutator: 'BlockStatement',
    original: '{ this.draws = position; }',
    replacement: '{}',
    killedBy: 'counts its draws; a saved position is put back, and counting goes on from it',
  },
  {
    file: 'src/core/rsa-keygen.ts',
    mutator: 'ArithmeticOperator',
    original: 'n.toString(16).length / 2',
    replacement: 'n.toString(16).length * 2',
    killedBy: KEY_PINNED,
  },
  { file: 'src/core/rsa-keygen.ts', mutator: 'EqualityOperator', original: 'i < rounds', replacement: 'i <= rounds', killedBy: KEY_PINNED },
  {
    file: 'src/core/rsa-keygen.ts',
    mutator: 'ConditionalExpression',
    original: 'modPow(2n, candidate - 1n, candidate) !== 1n',
    replacement: 'false',
    killedBy: KEY_PINNED,
  },
);

// The key derivation's last steps: the seeded keys of the other tests are derived once per process
// (SeededIds keeps them), so only tests that derive afresh reach these lines under a mutant.
const RSA = 'src/core/rsa-keygen.ts';
const WELL_FORMED = 'derives a well-formed key, the larger prime first, whichever of the two was drawn first';
const SAME_PRIMES = 'draws again when both primes come out the same';
const E_DIVIDES = 'draws again when e = 65537 divides p - 1, since d = e⁻¹ mod (p-1)(q-1) would not exist';
NOTES.push(
  { file: RSA, mutator: 'ConditionalExpression', original: 'p === q', replacement: 'false', killedBy: SAME_PRIMES },
  { file: RSA, mutator: 'ConditionalExpression', original: 'phi % e === 0n', replacement: 'false', killedBy: E_DIVIDES },
  { file: RSA, mutator: 'ArithmeticOperator', original: 'phi % e', replacement: 'phi * e', killedBy: E_DIVIDES },
  { file: RSA, mutator: 'ConditionalExpression', original: 'p > q', replacement: 'true', killedBy: WELL_FORMED },
  { file: RSA, mutator: 'ConditionalExpression', original: 'p > q', replacement: 'false', killedBy: WELL_FORMED },
  { file: RSA, mutator: 'EqualityOperator', original: 'p > q', replacement: 'p <= q', killedBy: WELL_FORMED },
  {
    file: RSA,
    mutator: 'EqualityOperator',
    original: 'p > q',
    replacement: 'p >= q',
    equivalent: 'p and q differ here: the line before draws again when they are equal, so p >= q and p > q agree',
  },
  { file: RSA, mutator: 'ArithmeticOperator', original: 'd % (big - 1n)', replacement: 'd * (big - 1n)', killedBy: WELL_FORMED },
  { file: RSA, mutator: 'ArithmeticOperator', original: 'big - 1n', replacement: 'big + 1n', killedBy: WELL_FORMED },
  { file: RSA, mutator: 'ArithmeticOperator', original: 'd % (small - 1n)', replacement: 'd * (small - 1n)', killedBy: WELL_FORMED },
  { file: RSA, mutator: 'ArithmeticOperator', original: 'small - 1n', replacement: 'small + 1n', killedBy: WELL_FORMED },
);

const ERRORS = 'src/core/errors.ts';
const CODE_UNSEEN = (where) =>
  `only ${where} raise it, and those answers show the HTTP status as the code (v2 envelope, or RealtimeKit's numeric code): the symbolic code is never shown, and nothing else reads it`;

NOTES.push(
  {
    file: ERRORS,
    mutator: 'StringLiteral',
    original: "'ApiError'",
    replacement: '""',
    killedBy: 'are ApiErrors, named so where they are printed, with the status and code an answer would carry',
  },
  {
    file: ERRORS,
    mutator: 'StringLiteral',
    original: "'UNAUTHORIZED'",
    replacement: '""',
    killedBy: 'GET answers 401 UNAUTHORIZED with no Authorization header',
  },
  {
    file: ERRORS,
    mutator: 'StringLiteral',
    original: "'UNSUPPORTED_MEDIA_TYPE'",
    replacement: '""',
    killedBy: 'answers 415 UNSUPPORTED_MEDIA_TYPE for a Content-Encoding other than identity, gzip, deflate or br',
  },
  {
    file: ERRORS,
    mutator: 'StringLiteral',
    original: "'TOO_MANY_REQUESTS'",
    replacement: '""',
    killedBy: 'answers a v1 client over its limit in the v1 shape: 429 TOO_MANY_REQUESTS with Retry-After',
  },
  {
    file: ERRORS,
    mutator: 'StringLiteral',
    original: "'INJECTED_FAULT'",
    replacement: '""',
    killedBy: 'answers a v1 request in the v1 shape, with the code INJECTED_FAULT',
  },
  {
    file: ERRORS,
    mutator: 'StringLiteral',
    original: "'The request was not received in time'",
    replacement: '""',
    killedBy: 'a request that did not arrive in time: 408 in the v2 envelope',
  },
  { file: ERRORS, mutator: 'StringLiteral', original: "'DELIVERY_IN_FLIGHT'", replacement: '""', killedBy: 'answers 409 while an attempt is in flight' },
  {
    file: ERRORS,
    mutator: 'StringLiteral',
    original: '`Delivery ${id} has an attempt in flight; try again once it has finished`',
    replacement: '``',
    killedBy: 'answers 409 while an attempt is in flight',
  },
  {
    file: ERRORS,
    mutator: 'StringLiteral',
    original: "'INTERNAL_ERROR'",
    replacement: '""',
    killedBy: 'answers 500 INTERNAL_ERROR in the v1 shape, without the failure’s own text, and logs it with the request id',
  },
  {
    file: ERRORS,
    mutator: 'StringLiteral',
    original: "'Internal error in the emulator'",
    replacement: '""',
    killedBy: 'answers 500 INTERNAL_ERROR in the v1 shape, without the failure’s own text, and logs it with the request id',
  },
  {
    file: ERRORS,
    mutator: 'StringLiteral',
    original: "'BAD_REQUEST'",
    replacement: '""',
    equivalent:
      "two survive, neither shown: badRequest's default code is never used, since its one caller (the state import, src/http/control/state.routes.ts) passes INVALID_STATE; malformedRequest is raised only by src/http/client-error.ts, whose answer is always in the v2 envelope, which shows the status as the code",
  },
  {
    file: ERRORS,
    mutator: 'StringLiteral',
    original: "'Request body is not valid JSON'",
    replacement: '""',
    equivalent:
      "the message without a position is never given: malformedJson is only called with a body text that failed the strict JSON check or JSON.parse (the direct reader passes its decoded text; body-parser sets the decoded string as the error's body, having refused every charset it cannot decode beforehand), and findJsonSyntaxError finds an error in every text that is not a JSON object or array (test/unit/json-syntax.test.ts holds it to JSON.parse), so `where` is always given",
  },
  {
    file: ERRORS,
    mutator: 'StringLiteral',
    original: "'Unauthorized'",
    replacement: '""',
    equivalent:
      "the default message is never used: it is raised without one only by orgOf, accountOf and participantOf, and each is called only by routes whose auth mode already guarantees the kind it checks for (orgOf: basic, basic-or-participant, v1-bearer, and account-token with an {app_id} in the path; accountOf: the account's /apps routes, which have no {app_id}; participantOf: participant routes)",
  },
  {
    file: ERRORS,
    mutator: 'StringLiteral',
    original: "'FORBIDDEN'",
    replacement: '""',
    equivalent: CODE_UNSEEN(
      'the v2 recording routes (a participant token without can_record, or for another meeting) and the RealtimeKit routes (an API token for another account)',
    ),
  },
  {
    file: ERRORS,
    mutator: 'StringLiteral',
    original: "'(none)'",
    replacement: '""',
    equivalent:
      "the survivor is the one in unsupportedEncoding: body-parser names the encoding it refuses as `(header || 'identity').toLowerCase()`, never an empty string, and the direct reader hands every request with a Content-Encoding header to body-parser. (The same literal in unsupportedMediaType, a body without a Content-Type, is killed by 'answers 415 for a body sent without a Content-Type, saying none was sent'.)",
  },
  {
    file: ERRORS,
    mutator: 'StringLiteral',
    original: "'REQUEST_HEADER_FIELDS_TOO_LARGE'",
    replacement: '""',
    equivalent: CODE_UNSEEN('the answers to requests Node refuses (src/http/client-error.ts)'),
  },
  {
    file: ERRORS,
    mutator: 'StringLiteral',
    original: "'REQUEST_TIMEOUT'",
    replacement: '""',
    equivalent: CODE_UNSEEN('the answers to requests Node refuses (src/http/client-error.ts)'),
  },
  {
    file: ERRORS,
    mutator: 'StringLiteral',
    original: "'PAYLOAD_TOO_LARGE'",
    replacement: '""',
    equivalent: `the survivor is chunkExtensionsTooLarge's (payloadTooLarge's is killed): ${CODE_UNSEEN('the answers to requests Node refuses (src/http/client-error.ts)')}`,
  },
  {
    file: ERRORS,
    mutator: 'BooleanLiteral',
    original: 'false',
    replacement: 'true',
    equivalent:
      "the survivor is rangeNotSatisfiable's v2Prefixed: a 416 is raised only on the /media routes, which answer in the control shape (code and plain message); the prefixed v2Message is read only for v2, SDK and RealtimeKit answers",
  },
  {
    file: ERRORS,
    mutator: 'StringLiteral',
    original: "'LIMIT_EXCEEDED'",
    replacement: '""',
    equivalent: CODE_UNSEEN('the v2 webhook routes (POST /v2/webhooks and its RealtimeKit twin)'),
  },
  {
    file: ERRORS,
    mutator: 'StringLiteral',
    original: "'WEBHOOK_URL_TAKEN'",
    replacement: '""',
    equivalent: CODE_UNSEEN('the v2 webhook routes that create or change a webhook, and their RealtimeKit twins'),
  },
  {
    file: ERRORS,
    mutator: 'StringLiteral',
    original: "'PRESET_NAME_TAKEN'",
    replacement: '""',
    equivalent: CODE_UNSEEN('the v2 preset routes that create or change a preset, and their RealtimeKit twins'),
  },
  {
    file: 'src/core/package-info.ts',
    mutator: 'StringLiteral',
    original: '`no package.json above ${from}`',
    replacement: '``',
    equivalent:
      "the throw is never reached: packageRoot runs once, when the module loads, from the module's own folder, and every way the emulator runs (the repository, the npm package, which always holds its package.json, the bundled command line in dist/, the container image, which copies package.json to /app) has a package.json above that folder",
  },
);

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
  {
    file: OUTBOX,
    mutator: 'ConditionalExpression',
    original: "trigger !== 'redeliver'",
    replacement: 'false',
    equivalent:
      "an automatic attempt (the first or a retry) starts only on a pending delivery, and nothing finishes it while it is in flight: a redelivery then answers 409, a stopped webhook ends the attempt before it is sent, and a reset drops the record, which the attempt checks first; so whenever the trigger is not 'redeliver', d.status === 'pending' already makes it automatic",
  },
  {
    file: OUTBOX,
    mutator: 'ConditionalExpression',
    original: 'this.records.size <= this.maxRecords',
    replacement: 'false',
    equivalent:
      'the same check opens the loop over each pool and returns before any record is dropped, so the early return before the loop only saves the walk',
  },
  {
    file: OUTBOX,
    mutator: 'EqualityOperator',
    original: 'this.records.size <= this.maxRecords',
    replacement: 'this.records.size < this.maxRecords',
    equivalent:
      'at exactly maxRecords the check inside the loop returns before any record is dropped (and an empty pool drops nothing), so the log keeps the same records',
  },
);

const REC_CONFIG = 'src/domain/recordings/recording-config.ts';
const RECORDINGS = 'src/domain/recordings/recordings.service.ts';
const IMPORTED_STORAGE = "storage === null || typeof storage !== 'object' || Array.isArray(storage)";
const IMPORTED_STORAGE_NULL = 'with storage_config null is kept as given, less the secrets';
const IMPORTED_SECRET = 'with a storage secret is kept as given, less the secrets';
const NOT_AN_OBJECT = 'a storage_config that is not an object gives the recordings no storage config';
const OBJECT_AT = "v !== null && typeof v === 'object' && !Array.isArray(v)";
const FINISHED_LEFT = "a recording joins the meeting's running session; when everyone leaves only the recording still running is stopped";
const PENDING_MAX_SECONDS = 'the pending max_seconds stop is saved with the state while recording, and only then';
const AFTER_PAUSE = 'max_seconds counts recorded time: after a pause the recording stops once the rest is recorded, named as a max_seconds stop';
const IMPORTED_PAUSED = 'a pending max_seconds stop leaves a recording the imported state shows as paused';
const EMPTY_STATUS = 'filters with status=';
const NEVER_REFUSED = (event, checks) =>
  `never thrown, so never answered: the only callers ${checks}, and the transition table accepts ${event} from each status they allow`;
const EVERY_ID_KNOWN = 'every id in the order and per-meeting lists names a recording (recordings are never deleted), so';

NOTES.push(
  { file: REC_CONFIG, mutator: 'ConditionalExpression', original: IMPORTED_STORAGE, replacement: 'true', killedBy: IMPORTED_SECRET },
  { file: REC_CONFIG, mutator: 'ConditionalExpression', original: IMPORTED_STORAGE, replacement: 'false', killedBy: IMPORTED_STORAGE_NULL },
  {
    file: REC_CONFIG,
    mutator: 'LogicalOperator',
    original: IMPORTED_STORAGE,
    replacement: "(storage === null || typeof storage !== 'object') && Array.isArray(storage)",
    killedBy: IMPORTED_STORAGE_NULL,
  },
  {
    file: REC_CONFIG,
    mutator: 'ConditionalExpression',
    original: "storage === null || typeof storage !== 'object'",
    replacement: 'false',
    killedBy: IMPORTED_STORAGE_NULL,
  },
  {
    file: REC_CONFIG,
    mutator: 'LogicalOperator',
    original: "storage === null || typeof storage !== 'object'",
    replacement: "storage === null && typeof storage !== 'object'",
    killedBy: IMPORTED_STORAGE_NULL,
  },
  {
    file: REC_CONFIG,
    mutator: 'ConditionalExpression',
    original: 'storage === null',
    replacement: 'false',
    equivalent: `in meetingRecordingOptions: a null storage_config then reads as undefined (objectAt gives undefined for null), and its one caller resolves the storage config as start ?? meeting ?? null, where null and undefined both end as null. (The same code in recordingConfigWithoutSecrets is killed by "${IMPORTED_STORAGE_NULL}".)`,
  },
  {
    file: REC_CONFIG,
    mutator: 'ConditionalExpression',
    original: "typeof storage !== 'object'",
    replacement: 'false',
    killedBy: 'without storage_config is kept as given, less the secrets',
  },
  {
    file: REC_CONFIG,
    mutator: 'EqualityOperator',
    original: "typeof storage !== 'object'",
    replacement: "typeof storage === 'object'",
    killedBy: IMPORTED_SECRET,
  },
  {
    file: REC_CONFIG,
    mutator: 'ObjectLiteral',
    original: '{ ...config, storage_config: withoutStorageSecrets(storage as Record<string, unknown>) }',
    replacement: '{}',
    killedBy: IMPORTED_SECRET,
  },
  { file: REC_CONFIG, mutator: 'ConditionalExpression', original: OBJECT_AT, replacement: 'true', killedBy: NOT_AN_OBJECT },
  {
    file: REC_CONFIG,
    mutator: 'LogicalOperator',
    original: OBJECT_AT,
    replacement: "v !== null && typeof v === 'object' || !Array.isArray(v)",
    killedBy: NOT_AN_OBJECT,
  },
  { file: REC_CONFIG, mutator: 'ConditionalExpression', original: "v !== null && typeof v === 'object'", replacement: 'true', killedBy: NOT_AN_OBJECT },
  {
    file: REC_CONFIG,
    mutator: 'LogicalOperator',
    original: "v !== null && typeof v === 'object'",
    replacement: "v !== null || typeof v === 'object'",
    killedBy: NOT_AN_OBJECT,
  },
  {
    file: REC_CONFIG,
    mutator: 'ConditionalExpression',
    original: 'v !== null',
    replacement: 'true',
    equivalent:
      'objectAt then gives null instead of undefined for a null value, and no reader can tell: storage_config is checked for null before objectAt is called for it, and dyte_bucket_config and audio_config are read through ?., which gives undefined for null as for undefined',
  },
  { file: REC_CONFIG, mutator: 'ConditionalExpression', original: "typeof v === 'object'", replacement: 'true', killedBy: NOT_AN_OBJECT },
  {
    file: REC_CONFIG,
    mutator: 'ConditionalExpression',
    original: "sc.auth_method === 'KEY'",
    replacement: 'false',
    killedBy: 'keeps the storage auth_method KEY on the recording it starts',
  },
  {
    file: REC_CONFIG,
    mutator: 'ConditionalExpression',
    original: "sc.auth_method === 'PASSWORD'",
    replacement: 'false',
    killedBy: 'keeps the storage auth_method PASSWORD on the recording it starts',
  },
  {
    file: RECORDINGS,
    mutator: 'StringLiteral',
    original: '`recording:${recordingId}:max-seconds`',
    replacement: '``',
    killedBy: 'max_seconds stops each recording at its own time, whatever else is recording',
  },
  {
    file: RECORDINGS,
    mutator: 'BooleanLiteral',
    original: 'false',
    replacement: 'true',
    killedBy: 'the saved state keeps whether each recording was started with allow_multiple_recordings',
  },
  {
    file: RECORDINGS,
    mutator: 'MethodExpression',
    original: '(data.recordingsByMeeting.get(meetingId) ?? []).map((id) => data.recordings.get(id)!).filter((r) => r && statuses.includes(r.status))',
    replacement: '(data.recordingsByMeeting.get(meetingId) ?? []).map(id => data.recordings.get(id)!)',
    killedBy: FINISHED_LEFT,
  },
  {
    file: RECORDINGS,
    mutator: 'ArrayDeclaration',
    original: '[]',
    replacement: '["Stryker was here"]',
    equivalent: `for a meeting without recordings (forMeetingWithStatus, activeFor): the made-up id names no recording, and both skip an id without one (r && …), so the answer is still none`,
  },
  { file: RECORDINGS, mutator: 'ArrowFunction', original: '(r) => r && statuses.includes(r.status)', replacement: '() => undefined', killedBy: FINISHED_LEFT },
  { file: RECORDINGS, mutator: 'ConditionalExpression', original: 'r && statuses.includes(r.status)', replacement: 'true', killedBy: FINISHED_LEFT },
  { file: RECORDINGS, mutator: 'ConditionalExpression', original: 'r && statuses.includes(r.status)', replacement: 'false', killedBy: FINISHED_LEFT },
  { file: RECORDINGS, mutator: 'ConditionalExpression', original: 'q.statuses.length > 0', replacement: 'true', killedBy: EMPTY_STATUS },
  { file: RECORDINGS, mutator: 'EqualityOperator', original: 'q.statuses.length > 0', replacement: 'q.statuses.length >= 0', killedBy: EMPTY_STATUS },
  {
    file: RECORDINGS,
    mutator: 'StringLiteral',
    original: "''",
    replacement: '"Stryker was here!"',
    killedBy: 'search: a meeting without a title matches by its ids and file names only',
  },
  {
    file: RECORDINGS,
    mutator: 'ConditionalExpression',
    original: 'statuses !== undefined || needle !== undefined || q.startTime !== undefined || q.endTime !== undefined || q.expired !== undefined',
    replacement: 'true',
    equivalent: `without any filter, matches() accepts every recording, and ${EVERY_ID_KNOWN} paginate's filtering walk gives the same items, total and offsets as its direct one: only the cost differs`,
  },
  {
    file: RECORDINGS,
    mutator: 'ConditionalExpression',
    original: 'q.endTime !== undefined',
    replacement: 'false',
    killedBy: 'start_time and end_time bound the invoked time, both inclusive',
  },
  {
    file: RECORDINGS,
    mutator: 'EqualityOperator',
    original: 'q.endTime !== undefined',
    replacement: 'q.endTime === undefined',
    killedBy: 'start_time and end_time bound the invoked time, both inclusive',
  },
  {
    file: RECORDINGS,
    mutator: 'ArithmeticOperator',
    original: 'ids.length - 1',
    replacement: 'ids.length + 1',
    equivalent: `activeFor then first looks at the two indexes past the end, which hold no id and so no recording (skipped by r && …); from the last id down it is the same walk`,
  },
  {
    file: RECORDINGS,
    mutator: 'ConditionalExpression',
    original: 'meeting.session.endedAt === null',
    replacement: 'true',
    killedBy: 'a recording started after the session ended gets a session id of its own',
  },
  {
    file: RECORDINGS,
    mutator: 'EqualityOperator',
    original: 'meeting.session.endedAt === null',
    replacement: 'meeting.session.endedAt !== null',
    killedBy: FINISHED_LEFT,
  },
  {
    file: RECORDINGS,
    mutator: 'StringLiteral',
    original: '`Cannot start a recording that is ${r.status}`',
    replacement: '``',
    equivalent: NEVER_REFUSED('START', 'begin only INVOKED recordings (the simulator checks the status first; a forced move asks for START only from INVOKED)'),
  },
  {
    file: RECORDINGS,
    mutator: 'StringLiteral',
    original: '`Cannot stop a recording that is ${r.status}`',
    replacement: '``',
    equivalent: NEVER_REFUSED(
      'STOP',
      'stop RECORDING or PAUSED recordings (the ALL_PEERS_LEFT stop lists only those, the max_seconds stop checks for RECORDING, a forced move asks for STOP only from those)',
    ),
  },
  {
    file: RECORDINGS,
    mutator: 'StringLiteral',
    original: '`Cannot complete the upload of a recording that is ${r.status}`',
    replacement: '``',
    equivalent: NEVER_REFUSED(
      'UPLOAD_COMPLETE',
      'complete only UPLOADING recordings (the simulator checks the status first; a forced move asks for it only from UPLOADING)',
    ),
  },
  {
    file: RECORDINGS,
    mutator: 'StringLiteral',
    original: '`Cannot fail a recording that is ${r.status}`',
    replacement: '``',
    equivalent: NEVER_REFUSED(
      'FAIL',
      'fail recordings that are INVOKED or UPLOADING (the simulator, after checking) or not yet final (a forced move asks for FAIL only where the table has it)',
    ),
  },
  {
    file: RECORDINGS,
    mutator: 'StringLiteral',
    original: "'forced'",
    replacement: '""',
    killedBy: "a forced ERRORED saves as its error reason 'forced' when none is given",
  },
  { file: RECORDINGS, mutator: 'ConditionalExpression', original: "r.status === 'RECORDING'", replacement: 'true', killedBy: PENDING_MAX_SECONDS },
  {
    file: RECORDINGS,
    mutator: 'ArithmeticOperator',
    original: 'r.maxSeconds * 1000 - recordedMsAt(r, now)',
    replacement: 'r.maxSeconds * 1000 + recordedMsAt(r, now)',
    killedBy: AFTER_PAUSE,
  },
  {
    file: RECORDINGS,
    mutator: 'BlockStatement',
    original: '{ this.ctx.scheduler.cancel(MAX_SECONDS_JOB, { recordingId: r.id }); }',
    replacement: '{}',
    killedBy: PENDING_MAX_SECONDS,
  },
  { file: RECORDINGS, mutator: 'ConditionalExpression', original: "!r || r.status !== 'RECORDING'", replacement: 'false', killedBy: IMPORTED_PAUSED },
  { file: RECORDINGS, mutator: 'ConditionalExpression', original: "r.status !== 'RECORDING'", replacement: 'false', killedBy: IMPORTED_PAUSED },
  { file: RECORDINGS, mutator: 'StringLiteral', original: "'max_seconds'", replacement: '""', killedBy: AFTER_PAUSE },
);

const LIVESTREAMS = 'src/domain/livestreams/livestreams.service.ts';
const FORCED_FROM_FINAL = 'a stopped or failed livestream cannot be forced anywhere (409); the answer names what it is';
const MOVE_REFUSED = "`Cannot move a livestream from ${l.state === 'STOPPED' ? 'OFFLINE (stopped)' : l.state} to ${to}`";
const IS_STOPPED = "l.state === 'STOPPED'";
const SESSION_OPEN_WHILE_LIVE =
  "a livestream's last session is open exactly while it is LIVE: the service opens one on entering LIVE and closes it on leaving, and an import refuses a document where it is not so ('an import refuses sessions the emulator could not have made')";
const APPLY_REFUSED = "`Cannot ${event.type.toLowerCase().replace('_', ' ')} a livestream that is ${l.state}`";
const APPLY_NEVER_REFUSED =
  "never thrown, so never answered: apply() is called by stopActive (the meeting's active livestream, OFFLINE, LIVE or IDLE, and the table takes STOP from each), goLive (from force() only when the table gave GO_LIVE for the state, from the simulator only for an OFFLINE one), fail (from the simulator only for an OFFLINE one, which the table takes FAIL from), force() (with the event the table gave for the state) and disable (END_INGEST only when LIVE); nothing changes the livestream between the check and the call";
const LIVESTREAM_IDS_KNOWN = 'every id in the order and per-meeting lists names a livestream (livestreams are never deleted), so';

NOTES.push(
  {
    file: LIVESTREAMS,
    mutator: 'ArrayDeclaration',
    original: '[]',
    replacement: '["Stryker was here"]',
    equivalent:
      "the survivor is activeFor's, for a meeting without livestreams: the made-up id names no livestream, and the walk skips an id without one (l && …), so the answer is still none for each caller (create, active and stopActive, a session's live_stream_on_start)",
  },
  {
    file: LIVESTREAMS,
    mutator: 'ArithmeticOperator',
    original: 'ids.length - 1',
    replacement: 'ids.length + 1',
    equivalent:
      "the survivor is activeFor's: the walk then first looks at the two indexes past the end, which hold no id and so no livestream (skipped by l && …); from the last id down it is the same walk. (The same code in lastSessionOf is not a survivor: it would never find a session.)",
  },
  {
    file: LIVESTREAMS,
    mutator: 'ConditionalExpression',
    original: 'q.status !== undefined || q.excludeMeetings === true || q.startTime !== undefined || q.endTime !== undefined',
    replacement: 'true',
    equivalent: `without any filter the filter function accepts every livestream (each clause is true when its bound is absent), and ${LIVESTREAM_IDS_KNOWN} paginate's filtering walk gives the same items, total and offsets as its direct one: only the cost differs`,
  },
  { file: LIVESTREAMS, mutator: 'StringLiteral', original: MOVE_REFUSED, replacement: '``', killedBy: FORCED_FROM_FINAL },
  { file: LIVESTREAMS, mutator: 'ConditionalExpression', original: IS_STOPPED, replacement: 'true', killedBy: FORCED_FROM_FINAL },
  { file: LIVESTREAMS, mutator: 'ConditionalExpression', original: IS_STOPPED, replacement: 'false', killedBy: FORCED_FROM_FINAL },
  { file: LIVESTREAMS, mutator: 'EqualityOperator', original: IS_STOPPED, replacement: "l.state !== 'STOPPED'", killedBy: FORCED_FROM_FINAL },
  { file: LIVESTREAMS, mutator: 'StringLiteral', original: "'OFFLINE (stopped)'", replacement: '""', killedBy: FORCED_FROM_FINAL },
  {
    file: LIVESTREAMS,
    mutator: 'ConditionalExpression',
    original: 'before.disabled',
    replacement: 'true',
    killedBy: 'enabling a livestream that is already enabled leaves its ingest delay running',
  },
  {
    file: LIVESTREAMS,
    mutator: 'ConditionalExpression',
    original: "l.state === 'LIVE'",
    replacement: 'true',
    equivalent: `${SESSION_OPEN_WHILE_LIVE}: closing the sessions of a livestream that was not LIVE finds none open and changes nothing`,
  },
  {
    file: LIVESTREAMS,
    mutator: 'ConditionalExpression',
    original: 'open.stoppedTime === null',
    replacement: 'true',
    equivalent: `${SESSION_OPEN_WHILE_LIVE}: closeSession is only called for a livestream that was LIVE, whose last session is open`,
  },
  {
    file: LIVESTREAMS,
    mutator: 'ConditionalExpression',
    original: 'm.session?.id === meetingSessionId',
    replacement: 'true',
    killedBy: 'answers 404 for a session id that is no meeting session, while meetings have sessions of their own',
  },
  {
    file: LIVESTREAMS,
    mutator: 'EqualityOperator',
    original: 's.startedTime >= from',
    replacement: 's.startedTime > from',
    killedBy: 'start_time takes a session that started at that very millisecond',
  },
  { file: LIVESTREAMS, mutator: 'StringLiteral', original: APPLY_REFUSED, replacement: '``', equivalent: APPLY_NEVER_REFUSED },
  {
    file: LIVESTREAMS,
    mutator: 'MethodExpression',
    original: 'event.type.toLowerCase()',
    replacement: 'event.type.toUpperCase()',
    equivalent: APPLY_NEVER_REFUSED,
  },
  { file: LIVESTREAMS, mutator: 'StringLiteral', original: "'_'", replacement: '""', equivalent: APPLY_NEVER_REFUSED },
  { file: LIVESTREAMS, mutator: 'StringLiteral', original: "' '", replacement: '""', equivalent: APPLY_NEVER_REFUSED },
  {
    file: LIVESTREAMS,
    mutator: 'ConditionalExpression',
    original: 'meetingSession.endedAt === null',
    replacement: 'true',
    killedBy: 'a livestream that goes LIVE after the meeting session ended is not one of its livestream sessions',
  },
  {
    file: LIVESTREAMS,
    mutator: 'ConditionalExpression',
    original: 'ids.length > 0',
    replacement: 'true',
    equivalent:
      'an empty list then reads ids[-1], which is undefined, and livestreamSessions.get(undefined) is undefined: the same answer as the one the check gives, no session',
  },
  {
    file: LIVESTREAMS,
    mutator: 'EqualityOperator',
    original: 'ids.length > 0',
    replacement: 'ids.length >= 0',
    equivalent:
      'an empty list then reads ids[-1], which is undefined, and livestreamSessions.get(undefined) is undefined: the same answer as the one the check gives, no session',
  },
  {
    file: LIVESTREAMS,
    mutator: 'EqualityOperator',
    original: 'i >= 0',
    replacement: 'i > 0',
    killedBy: "carry the organization's very first session when it is the newest of the page",
  },
);

NOTES.push({
  file: SCHED,
  mutator: 'ConditionalExpression',
  original: 'i < 0',
  replacement: 'false',
  equivalent:
    'every job remove() is given is in the heap: the map of keys and the heap always hold the same jobs (insert adds to both, pop and remove take from both), and its callers pass a job found through that map (cancel, a replacing schedule) or taken from the heap itself (cancelOrg, cancelKind)',
});

const BODY = 'src/http/json-body.ts';
const FAST_START = "text[0] !== '{' && text[0] !== '['";
const SAME_FIRST =
  'the first character is looked for again by firstNonWhitespace, which finds the same one: the check only spares a body that starts with { or [ the regular expression';
const ARRAY_AFTER_SPACE = 'an array after whitespace: the same answer and journal entry either way';
const HTTP_ERRORS = 'src/http/errors.ts';
const SDK_ENVELOPE = 'refuses every credential but a valid participant token (401)';
const UNFORESEEN = 'answers 500 INTERNAL_ERROR in the v1 shape, without the failure’s own text, and logs it with the request id';
const ANSWER_BEGUN =
  'no error reaches the handler once an answer began: every route writes its answer whole with one call (the reply, the media files, the dashboard), and the event stream never passes an error on';
const LOGGED_WITH = "{ err, requestId: res.getHeader('x-request-id'), method: req.method, path: req.path }";
NOTES.push(
  { file: BODY, mutator: 'ConditionalExpression', original: FAST_START, replacement: 'true', equivalent: SAME_FIRST },
  { file: BODY, mutator: 'ConditionalExpression', original: "text[0] !== '{'", replacement: 'true', equivalent: SAME_FIRST },
  { file: BODY, mutator: 'ConditionalExpression', original: "text[0] !== '['", replacement: 'true', equivalent: SAME_FIRST },
  { file: BODY, mutator: 'StringLiteral', original: "'{'", replacement: '""', equivalent: SAME_FIRST },
  { file: BODY, mutator: 'StringLiteral', original: "'['", replacement: '""', equivalent: SAME_FIRST },
  { file: BODY, mutator: 'ConditionalExpression', original: "first !== '['", replacement: 'true', killedBy: ARRAY_AFTER_SPACE },
  {
    file: BODY,
    mutator: 'ConditionalExpression',
    original: '(req as { upgrade?: unknown }).upgrade === true',
    replacement: 'false',
    killedBy: 'leaves to body-parser what it does not read as usual',
  },

  {
    file: BODY,
    mutator: 'StringLiteral',
    original: "'error'",
    replacement: '""',
    killedBy: 'leaves no listener on the request once the body is read, or could not be',
  },
  {
    file: BODY,
    mutator: 'Regex',
    original: '/^[ \\t\\n\\r]*([^ \\t\\n\\r]|$)/',
    replacement: '/[ \\t\\n\\r]*([^ \\t\\n\\r]|$)/',
    equivalent:
      'the expression matches at the start of any text (whitespace or none, then a character or the end), so exec finds that match first with or without the anchor',
  },
  {
    file: BODY,
    mutator: 'Regex',
    original: '/^[ \\t\\n\\r]*([^ \\t\\n\\r]|$)/',
    replacement: '/^[ \\t\\n\\r]*([^ \\t\\n\\r])/',
    equivalent: 'for a text of whitespace only, no match gives undefined and the empty match gives "", which `|| undefined` also makes undefined',
  },
  { file: HTTP_ERRORS, mutator: 'ConditionalExpression', original: "api === 'sdk'", replacement: 'false', killedBy: SDK_ENVELOPE },
  {
    file: HTTP_ERRORS,
    mutator: 'ConditionalExpression',
    original: 'bytes === LIMITS.bodyBytes',
    replacement: 'false',
    equivalent: 'the limit is 1 MiB, which the general rule also writes as 1mb (LIMITS.bodyText)',
  },
  {
    file: HTTP_ERRORS,
    mutator: 'StringLiteral',
    original: "''",
    replacement: '"Stryker was here!"',
    equivalent:
      "body-parser gives every 'encoding.unsupported' error its encoding and every 'charset.unsupported' one its charset, so the fallback never applies",
  },
  {
    file: HTTP_ERRORS,
    mutator: 'ConditionalExpression',
    original: 'e?.status === 400 && e.expose === true',
    replacement: 'true',
    killedBy: 'an error handler that itself failed',
  },
  {
    file: HTTP_ERRORS,
    mutator: 'ConditionalExpression',
    original: 'e.expose === true',
    replacement: 'true',
    equivalent: 'every error with status 400 that reaches here was made by http-errors (body-parser, raw-body), which exposes every status below 500',
  },
  { file: HTTP_ERRORS, mutator: 'ObjectLiteral', original: LOGGED_WITH, replacement: '{}', killedBy: UNFORESEEN },
  { file: HTTP_ERRORS, mutator: 'StringLiteral', original: "'x-request-id'", replacement: '""', killedBy: UNFORESEEN },
  { file: HTTP_ERRORS, mutator: 'StringLiteral', original: "'unhandled error'", replacement: '""', killedBy: UNFORESEEN },
  {
    file: HTTP_ERRORS,
    mutator: 'BlockStatement',
    original: '{\n      res.end();\n      return;\n    }',
    replacement: '{}',
    equivalent: ANSWER_BEGUN,
  },
  { file: HTTP_ERRORS, mutator: 'ConditionalExpression', original: 'res.headersSent', replacement: 'false', equivalent: ANSWER_BEGUN },
);

const RULES = 'src/domain/sessions/session-rules.ts';
const ONE_OF_EACH = 'plain text without a title: the summary of the meeting, one line from one speaker';
const CUT_AT_LIMIT = 'plain text is cut at exactly word_limit words; lines that fill the limit end it with no empty line';
NOTES.push(
  {
    file: RULES,
    mutator: 'ConditionalExpression',
    original: 'i === p.spans.length - 1',
    replacement: 'true',
    killedBy: 'a second leave after a rejoin closes only the new stay: the first keeps its end',
  },
  {
    file: RULES,
    mutator: 'EqualityOperator',
    original: 'limit <= 1000',
    replacement: 'limit < 1000',
    killedBy: 'takes a word_limit of 1000, the top of the documented range',
  },
  {
    file: RULES,
    mutator: 'MethodExpression',
    original: 'text.split(/\\s+/).filter(Boolean)',
    replacement: 'text.split(/\\s+/)',
    killedBy: 'counts words as a reader does: spaces around and between them are not words',
  },
  {
    file: RULES,
    mutator: 'Regex',
    original: '/\\s+/',
    replacement: '/\\s/',
    equivalent:
      'words() drops the empty pieces (filter(Boolean)), and splitting at each whitespace character leaves the same non-empty pieces, in the same order, as splitting at runs of it; its callers use only that list (its length, a slice joined with single spaces)',
  },
  { file: RULES, mutator: 'StringLiteral', original: "'the meeting'", replacement: '""', killedBy: ONE_OF_EACH },
  { file: RULES, mutator: 'ConditionalExpression', original: 's.transcript.length === 1', replacement: 'false', killedBy: ONE_OF_EACH },
  { file: RULES, mutator: 'StringLiteral', original: "''", replacement: '"Stryker was here!"', killedBy: ONE_OF_EACH },
  { file: RULES, mutator: 'ConditionalExpression', original: 'speakers.size === 1', replacement: 'false', killedBy: ONE_OF_EACH },
  { file: RULES, mutator: 'StringLiteral', original: "' '", replacement: '""', killedBy: CUT_AT_LIMIT },
  { file: RULES, mutator: 'EqualityOperator', original: 'budget <= 0', replacement: 'budget < 0', killedBy: CUT_AT_LIMIT },
);

const HISTORY = 'src/domain/sessions/session-history.service.ts';
const NOBODY_SPOKE = 'a session nobody spoke in ends without meeting.transcript or meeting.summary, though ai_config asks for both';
const SORT_KEY = '(a.k - b.k) * sign';
const SORT_TIE = '(a.i - b.i) * sign';
const SIGN_IS_ONE =
  'sign is 1 or -1 (sortOrder ASC or DESC), and x * 1 === x / 1, x * -1 === x / -1 for every number x (0 gives -0 both ways): the comparator answers the same';
const TIES_LATER_FIRST =
  "the tie-break runs only for equal keys, and V8's stable sort (binary insertion, runs, merges, galloping) always calls the comparator with the later element first, so a.i > b.i >= 0: a.i - b.i and a.i + b.i are both positive, same sign, same order (checked: 4 million tie comparisons on arrays of 1 to 3000, never the earlier first)";
const PARTICIPANT_SEARCH = "(p.name ?? '').toLowerCase().includes(needle) || p.customParticipantId.toLowerCase().includes(needle)";
const BY_DURATION = "q.sortBy === 'duration'";
const SORTS_PARTICIPANTS = 'sorts by first join by default and by duration with sort_by=duration';
const SEARCH_CASE = 'search matches the display name or the custom participant id, whatever the case';
NOTES.push(
  {
    file: HISTORY,
    mutator: 'EqualityOperator',
    original: 's.startedAt < q.startTime',
    replacement: 's.startedAt <= q.startTime',
    killedBy: 'filters and sorts: start_time at a session start',
  },
  {
    file: HISTORY,
    mutator: 'EqualityOperator',
    original: 's.startedAt > q.endTime',
    replacement: 's.startedAt >= q.endTime',
    killedBy: 'filters and sorts: end_time at a session start',
  },
  {
    file: HISTORY,
    mutator: 'ConditionalExpression',
    original: 's.participants.length > q.participants.max',
    replacement: 'false',
    killedBy: 'filters and sorts: participants=1:1',
  },
  {
    file: HISTORY,
    mutator: 'EqualityOperator',
    original: 's.participants.length > q.participants.max',
    replacement: 's.participants.length >= q.participants.max',
    killedBy: 'filters and sorts: participants=1:1',
  },
  // The same mutant twice in the file: the title of a meeting without one (session search) and the
  // name of a participant without one (participant search); each of the two tests kills its own.
  { file: HISTORY, mutator: 'StringLiteral', original: "''", replacement: '"Stryker was here!"', killedBy: 'search matches the' },
  {
    file: HISTORY,
    mutator: 'ConditionalExpression',
    original: 'session.transcript.length > 0',
    replacement: 'true',
    killedBy: NOBODY_SPOKE,
  },
  {
    file: HISTORY,
    mutator: 'EqualityOperator',
    original: 'session.transcript.length > 0',
    replacement: 'session.transcript.length >= 0',
    killedBy: NOBODY_SPOKE,
  },
  { file: HISTORY, mutator: 'ArithmeticOperator', original: SORT_KEY, replacement: '(a.k - b.k) / sign', equivalent: SIGN_IS_ONE },
  { file: HISTORY, mutator: 'ArithmeticOperator', original: SORT_TIE, replacement: '(a.i - b.i) / sign', equivalent: SIGN_IS_ONE },
  { file: HISTORY, mutator: 'ArithmeticOperator', original: 'a.i - b.i', replacement: 'a.i + b.i', equivalent: TIES_LATER_FIRST },
  {
    file: HISTORY,
    mutator: 'LogicalOperator',
    original: PARTICIPANT_SEARCH,
    replacement: "(p.name ?? '').toLowerCase().includes(needle) && p.customParticipantId.toLowerCase().includes(needle)",
    killedBy: SEARCH_CASE,
  },
  { file: HISTORY, mutator: 'MethodExpression', original: "(p.name ?? '').toLowerCase()", replacement: "(p.name ?? '').toUpperCase()", killedBy: SEARCH_CASE },
  {
    file: HISTORY,
    mutator: 'MethodExpression',
    original: 'p.customParticipantId.toLowerCase()',
    replacement: 'p.customParticipantId.toUpperCase()',
    killedBy: SEARCH_CASE,
  },
  { file: HISTORY, mutator: 'ConditionalExpression', original: BY_DURATION, replacement: 'true', killedBy: SORTS_PARTICIPANTS },
  { file: HISTORY, mutator: 'ConditionalExpression', original: BY_DURATION, replacement: 'false', killedBy: SORTS_PARTICIPANTS },
  { file: HISTORY, mutator: 'EqualityOperator', original: BY_DURATION, replacement: "q.sortBy !== 'duration'", killedBy: SORTS_PARTICIPANTS },
  {
    file: HISTORY,
    mutator: 'LogicalOperator',
    original: `${SORT_KEY} || ${SORT_TIE}`,
    replacement: `${SORT_KEY} && ${SORT_TIE}`,
    killedBy: SORTS_PARTICIPANTS,
  },
  { file: HISTORY, mutator: 'ArithmeticOperator', original: 'a.k - b.k', replacement: 'a.k + b.k', killedBy: SORTS_PARTICIPANTS },
  {
    file: HISTORY,
    mutator: 'EqualityOperator',
    original: 'i >= 0',
    replacement: 'i > 0',
    killedBy: 'peer-report finds a peer whose only session is the first of the organization',
  },
  { file: HISTORY, mutator: 'BooleanLiteral', original: 'true', replacement: 'false', killedBy: 'mute keeps the mute on the participant in the session' },
  {
    file: HISTORY,
    mutator: 'StringLiteral',
    original: '`Participant ${participantId} is not in meeting ${meeting.id}`',
    replacement: '``',
    killedBy: 'chat and speech need the participant in the meeting (409)',
  },
  {
    file: HISTORY,
    mutator: 'StringLiteral',
    original: '`No summary found for session_id ${sessionId}`',
    replacement: '``',
    killedBy: 'a summary link handed out before an import that has no summary for the session answers 404',
  },
);

const MEETINGS_SVC = 'src/domain/meetings/meetings.service.ts';
const SESSIONS_SVC = 'src/domain/meetings/sessions.service.ts';
const TOKENS = 'src/domain/participants/participant-tokens.ts';
const PARTICIPANTS_SVC = 'src/domain/participants/participants.service.ts';
const NO_PEERS_STOP = 'a stop that falls due while someone is present (as a state document may say) leaves the recording running';
const SWALLOWED =
  "the Error is thrown inside verify's try and the catch drops it for the same 401 'Invalid or expired participant token': its message is never seen";
NOTES.push(
  {
    file: MEETINGS_SVC,
    mutator: 'ConditionalExpression',
    original: 'needle !== undefined || q.startTime !== undefined || q.endTime !== undefined',
    replacement: 'true',
    equivalent:
      'without search, start_time or end_time the filter accepts every meeting, and every id in meetingOrder names a meeting (putMeeting pushes the id exactly when it first stores the meeting; nothing deletes a meeting from OrgData; an import or reset builds new OrgData): the filtered walk of paginate then gives the same items, total and offsets as the unfiltered one, only at O(all) instead of O(page)',
  },
  {
    file: MEETINGS_SVC,
    mutator: 'StringLiteral',
    original: "''",
    replacement: '"Stryker was here!"',
    killedBy: 'search finds a meeting without a title by its id only, never by a title word',
  },

  {
    file: SESSIONS_SVC,
    mutator: 'StringLiteral',
    original: '`meeting:${meetingId}:all-peers-left`',
    replacement: '``',
    killedBy: "a rejoin in one meeting does not cancel another meeting's pending stop",
  },
  {
    file: SESSIONS_SVC,
    mutator: 'StringLiteral',
    original: '`Participant ${participant.id} has already joined meeting ${meeting.id}`',
    replacement: '``',
    killedBy: 'the 409 of join twice names the participant and the meeting',
  },
  {
    file: SESSIONS_SVC,
    mutator: 'ConditionalExpression',
    original: 'opens',
    replacement: 'true',
    killedBy: 'only the first join starts them: a later join in the same session does not restart a stopped recording or livestream',
  },
  {
    file: SESSIONS_SVC,
    mutator: 'StringLiteral',
    original: '`Participant ${participant.id} is not in meeting ${meeting.id}`',
    replacement: '``',
    killedBy: 'the 409 of leave without joining names the participant and the meeting',
  },
  {
    file: SESSIONS_SVC,
    mutator: 'ConditionalExpression',
    original: 'meeting.session.endedAt !== null',
    replacement: 'false',
    killedBy: 'a leave after the session has ended (a state document shows the participant still present) does not end it again',
  },
  {
    file: SESSIONS_SVC,
    mutator: 'ArrayDeclaration',
    original: '[]',
    replacement: '["Stryker was here"]',
    equivalent:
      'the fallback list only holds an id no participant has: participants.get("Stryker was here") is undefined and the `p && …` filter right after drops it, so present() answers [] as before',
  },
  {
    file: SESSIONS_SVC,
    mutator: 'ConditionalExpression',
    original: '!meeting || this.present(meeting).length > 0',
    replacement: 'false',
    killedBy: NO_PEERS_STOP,
  },
  { file: SESSIONS_SVC, mutator: 'ConditionalExpression', original: 'this.present(meeting).length > 0', replacement: 'false', killedBy: NO_PEERS_STOP },
  {
    file: TOKENS,
    mutator: 'ArrayDeclaration',
    original: '[this.key.publicJwk]',
    replacement: '[]',
    killedBy: 'are RS256 JWTs with the contract claims, 100 days on the emulator clock, verifiable with the JWKS',
  },
  {
    file: TOKENS,
    mutator: 'StringLiteral',
    original: "'JWT'",
    replacement: '""',
    killedBy: 'are RS256 JWTs with the contract claims, 100 days on the emulator clock, verifiable with the JWKS',
  },
  { file: TOKENS, mutator: 'StringLiteral', original: "'alg'", replacement: '""', equivalent: SWALLOWED },
  {
    file: TOKENS,
    mutator: 'ConditionalExpression',
    original: "header.alg !== 'RS256'",
    replacement: 'false',
    equivalent:
      "jwtVerify right after is given algorithms: ['RS256'] and refuses any other alg itself (alg none, HS256 with the PEM or the JWK modulus: the auth tests still pass with the mutant), with the same 401 from the catch",
  },
  { file: TOKENS, mutator: 'StringLiteral', original: "'claims'", replacement: '""', equivalent: SWALLOWED },
  {
    file: TOKENS,
    mutator: 'StringLiteral',
    original: "'Invalid or expired participant token'",
    replacement: '""',
    killedBy: 'a token issued later lives 100 days from its own issue time',
  },
  {
    file: PARTICIPANTS_SVC,
    mutator: 'StringLiteral',
    original: "'(none)'",
    replacement: '""',
    killedBy: 'an unknown preset_name in an organization that has no presets left says it has none',
  },
);

const HLS = 'src/domain/media/hls-playlist.ts';
const MEDIA_LINKS = 'src/domain/media/media-links.ts';
const PAGING = 'src/domain/paging.ts';
const PRODUCT_CODE = 'src/domain/products/product-code.ts';
const PRODUCTS_SVC = 'src/domain/products/products.service.ts';
const NO_SEGMENTS = 'without sample segments (a media folder with no hls/segments.json) the playlist lists none';
const ZERO_LENGTH = 'sample segments of no length (durations 0) keep the playlist on segment 0';
const CYCLE_GUARD = 'n === 0 || cycleMs <= 0';
const LAST_SEGMENT = 'i < n - 1';
const LAST_SEGMENT_ANYWAY =
  "the walk stops at the last segment anyway: it reaches i = n - 1 only with the first n - 1 durations taken off rest, and rest < cycleMs (the sum of all n), so what is left is below the last duration and rest >= segments[n - 1] is false. Exact in doubles for the one caller's segments (the media routes pass deps.media.files.hls, whose durations are whole ms from Math.round): every subtraction is of whole numbers from a number at least as large, so none rounds";
const EXPIRES_DIGITS = '/^\\d{1,16}$/';
const NOT_A_CHARACTER = 'refuses a character that is neither letter nor digit: ';
const A_AND_Z = 'reads the first and last letters, a and z, like A and Z';
NOTES.push(
  { file: HLS, mutator: 'ConditionalExpression', original: CYCLE_GUARD, replacement: 'false', killedBy: NO_SEGMENTS },
  { file: HLS, mutator: 'LogicalOperator', original: CYCLE_GUARD, replacement: 'n === 0 && cycleMs <= 0', killedBy: ZERO_LENGTH },
  {
    file: HLS,
    mutator: 'ConditionalExpression',
    original: 'n === 0',
    replacement: 'false',
    equivalent: `in liveSegmentAt: no segments make cycleMs the reduce's start value 0, so cycleMs <= 0 already holds whenever n === 0. (The same code in livePlaylist's EXT-X-DISCONTINUITY-SEQUENCE is killed by "${NO_SEGMENTS}".)`,
  },
  { file: HLS, mutator: 'ConditionalExpression', original: 'cycleMs <= 0', replacement: 'false', killedBy: ZERO_LENGTH },
  { file: HLS, mutator: 'EqualityOperator', original: 'cycleMs <= 0', replacement: 'cycleMs < 0', killedBy: ZERO_LENGTH },
  { file: HLS, mutator: 'ConditionalExpression', original: LAST_SEGMENT, replacement: 'true', equivalent: LAST_SEGMENT_ANYWAY },
  { file: HLS, mutator: 'EqualityOperator', original: LAST_SEGMENT, replacement: 'i <= n - 1', equivalent: LAST_SEGMENT_ANYWAY },
  { file: HLS, mutator: 'ArithmeticOperator', original: 'n - 1', replacement: 'n + 1', equivalent: LAST_SEGMENT_ANYWAY },
  {
    file: HLS,
    mutator: 'ConditionalExpression',
    original: 'segments.length === 0',
    replacement: 'false',
    equivalent:
      'segmentIndexOf has one caller, the segment route (src/http/media/media.routes.ts), which answers 404 when there are no segments (hls.length === 0) before it calls it',
  },
  { file: HLS, mutator: 'ConditionalExpression', original: 'n > 0', replacement: 'true', killedBy: NO_SEGMENTS },
  { file: HLS, mutator: 'EqualityOperator', original: 'n > 0', replacement: 'n >= 0', killedBy: NO_SEGMENTS },
  {
    file: MEDIA_LINKS,
    mutator: 'Regex',
    original: '/\\.mp4$/',
    replacement: '/\\.mp4/',
    killedBy: 'audio_download_url turns only the final .mp4 of an output_file_name into .m4a',
  },
  {
    file: MEDIA_LINKS,
    mutator: 'Regex',
    original: EXPIRES_DIGITS,
    replacement: '/\\d{1,16}$/',
    killedBy: 'answers 403 INVALID_SIGNATURE for the same expiry written with a plus sign',
  },
  {
    file: MEDIA_LINKS,
    mutator: 'Regex',
    original: EXPIRES_DIGITS,
    replacement: '/^\\d{1,16}/',
    killedBy: 'answers 403 INVALID_SIGNATURE for the same expiry written with a decimal fraction',
  },
  {
    file: MEDIA_LINKS,
    mutator: 'ConditionalExpression',
    original: 'expected.length !== given.length',
    replacement: 'false',
    killedBy: 'answers 403 INVALID_SIGNATURE for a signature one character short',
  },
  {
    file: PAGING,
    mutator: 'EqualityOperator',
    original: 'k < ids.length',
    replacement: 'k <= ids.length',
    equivalent:
      'the one step past the end reads ids[-1] or ids[ids.length], which is undefined, and every caller that passes a filter (recordings, meetings and livestreams lists) gets items from a Map keyed by id strings: get(undefined) is undefined, the walk skips it and neither the items nor total change',
  },
  {
    file: MEDIA_LINKS,
    mutator: 'StringLiteral',
    original: "'recording-audio.m4a'",
    replacement: '""',
    equivalent:
      "the survivor is the one in the audio file's bytes (the one in its path is killed): nothing reads that count, since a recording's file_size is the video's and the audio route sends the bytes it read",
  },
  {
    file: PAGING,
    mutator: 'ArithmeticOperator',
    original: '(req.page - 1) * req.perPage',
    replacement: '(req.page - 1) / req.perPage',
    killedBy: 'pages, searches and sorts',
  },
  {
    file: PRODUCT_CODE,
    mutator: 'ConditionalExpression',
    original: 'code >= 48',
    replacement: 'true',
    equivalent: 'a character below "0" (48) then gives code - 48, below zero, which mod97CheckDigits, the one caller, refuses as it refuses -1',
  },
  { file: PRODUCT_CODE, mutator: 'ConditionalExpression', original: 'code >= 65', replacement: 'true', killedBy: `${NOT_A_CHARACTER}"@"` },
  { file: PRODUCT_CODE, mutator: 'ConditionalExpression', original: 'code >= 97', replacement: 'true', killedBy: `${NOT_A_CHARACTER}"["` },
  { file: PRODUCT_CODE, mutator: 'EqualityOperator', original: 'code >= 97', replacement: 'code > 97', killedBy: A_AND_Z },
  { file: PRODUCT_CODE, mutator: 'EqualityOperator', original: 'code <= 122', replacement: 'code < 122', killedBy: A_AND_Z },
  {
    file: PRODUCT_CODE,
    mutator: 'StringLiteral',
    original: '`mod97CheckDigits: "${text[i]}" is not a letter or digit`',
    replacement: '``',
    killedBy: 'names the character it refuses',
  },
  {
    file: PRODUCTS_SVC,
    mutator: 'EqualityOperator',
    original: 'code.length > 80',
    replacement: 'code.length >= 80',
    killedBy: 'echoes an invalid code of exactly 80 characters whole, without an ellipsis',
  },
  {
    file: PRODUCTS_SVC,
    mutator: 'StringLiteral',
    original: '`"product_id" must be 1 to ${PRODUCT_ID_MAX} letters or digits`',
    replacement: '``',
    killedBy: 'refuses a fixture product whose product_id is not 1 to 32 letters or digits',
  },
  {
    file: 'src/domain/context.ts',
    mutator: 'StringLiteral',
    original: "'Unknown organization'",
    replacement: '""',
    killedBy: 'answers 401 Unknown organization when a reset removes the organization after the credentials were checked',
  },
);

const ACCOUNTS_SVC = 'src/domain/accounts/accounts.service.ts';
const ORGS_SVC = 'src/domain/organizations/organizations.service.ts';
const ACCOUNTS_NAMELESS = 'an account the document gives no name is named after the last 8 digits of its id';
const ACCOUNTS_OLDEST_FIRST = 'lists apps oldest first by their created_at even when the document lists them in another order';
const ORGS_BASELINE_ORG = '!this.fixtures.organizations.some((b) => b.id === o.id)';
const ORGS_SAME_ID = 'b.id === o.id';
const ORGS_IMPORTED_ONLY = 'resetting an organization that only an imported state holds brings back the presets it was imported with';
const ORGS_UNUSED_START_PRESETS =
  'the condition only decides whether an organization of the baseline fixtures also gets a start-presets entry, and reset() never reads one for it: it finds the organization in this.fixtures (the same list the condition reads, which changes only in a baseline load, and that clears startPresets first) and reseeds it from there. An organization only the loaded document holds still gets its entry, since the baseline list is never empty (fixtures and state documents need at least one organization, and every document is parsed: loadFixturesFile, startEmulator, PUT /_emulator/state)';
const ORGS_CACHE_SIZE = 'this.verified.size >= 1_000';
const ORGS_CACHE_ONLY =
  'verified only remembers credentials that sameSecret already accepted, and a pair that is not remembered is checked again: when the set is cleared changes memory and hashing time, never an answer. No remembered pair goes stale: an API key never changes while its organization exists, and a reset or a load clears the set';
NOTES.push(
  { file: ACCOUNTS_SVC, mutator: 'StringLiteral', original: '`Account ${a.id.slice(-8)}`', replacement: '``', killedBy: ACCOUNTS_NAMELESS },
  { file: ACCOUNTS_SVC, mutator: 'MethodExpression', original: 'a.id.slice(-8)', replacement: 'a.id', killedBy: ACCOUNTS_NAMELESS },
  { file: ACCOUNTS_SVC, mutator: 'UnaryOperator', original: '-8', replacement: '+8', killedBy: ACCOUNTS_NAMELESS },
  {
    file: ACCOUNTS_SVC,
    mutator: 'MethodExpression',
    original: 'out.sort((a, b) => a.createdAt - b.createdAt)',
    replacement: 'out',
    killedBy: ACCOUNTS_OLDEST_FIRST,
  },
  {
    file: ACCOUNTS_SVC,
    mutator: 'ArithmeticOperator',
    original: 'a.createdAt - b.createdAt',
    replacement: 'a.createdAt + b.createdAt',
    killedBy: ACCOUNTS_OLDEST_FIRST,
  },
  {
    file: ORGS_SVC,
    mutator: 'ConditionalExpression',
    original: 'opts.baseline || !this.fixtures',
    replacement: 'true',
    killedBy: 'survives export → import; an organization reset drops its sessions only',
  },
  {
    file: ORGS_SVC,
    mutator: 'ArrayDeclaration',
    original: '[...c.certifications]',
    replacement: '[]',
    killedBy: 'lists the fixture categories in fixture order, with their default sustainability data',
  },
  {
    file: ORGS_SVC,
    mutator: 'BooleanLiteral',
    original: ORGS_BASELINE_ORG,
    replacement: 'this.fixtures.organizations.some(b => b.id === o.id)',
    killedBy: ORGS_IMPORTED_ONLY,
  },
  { file: ORGS_SVC, mutator: 'ConditionalExpression', original: ORGS_BASELINE_ORG, replacement: 'true', equivalent: ORGS_UNUSED_START_PRESETS },
  { file: ORGS_SVC, mutator: 'ConditionalExpression', original: ORGS_BASELINE_ORG, replacement: 'false', killedBy: ORGS_IMPORTED_ONLY },
  {
    file: ORGS_SVC,
    mutator: 'MethodExpression',
    original: 'this.fixtures.organizations.some((b) => b.id === o.id)',
    replacement: 'this.fixtures.organizations.every(b => b.id === o.id)',
    equivalent: `${ORGS_UNUSED_START_PRESETS}; for an organization the baseline does not hold, every() over that non-empty list is false, as some() is`,
  },
  { file: ORGS_SVC, mutator: 'ArrowFunction', original: '(b) => b.id === o.id', replacement: '() => undefined', equivalent: ORGS_UNUSED_START_PRESETS },
  { file: ORGS_SVC, mutator: 'ConditionalExpression', original: ORGS_SAME_ID, replacement: 'true', killedBy: ORGS_IMPORTED_ONLY },
  { file: ORGS_SVC, mutator: 'ConditionalExpression', original: ORGS_SAME_ID, replacement: 'false', equivalent: ORGS_UNUSED_START_PRESETS },
  { file: ORGS_SVC, mutator: 'EqualityOperator', original: ORGS_SAME_ID, replacement: 'b.id !== o.id', killedBy: ORGS_IMPORTED_ONLY },
  {
    file: ORGS_SVC,
    mutator: 'ConditionalExpression',
    original: 'patch.name !== data.org.name',
    replacement: 'true',
    killedBy: 'an edit that gives the organization its own name is no rename',
  },
  {
    file: ORGS_SVC,
    mutator: 'ObjectLiteral',
    original: '{ featureFlags: [...profile.featureFlags] }',
    replacement: '{}',
    equivalent:
      "without the copy the profile holds the very array the edit was given, which the spread of the defined fields above already put there: the one caller, PATCH /v2/orgs/{org_id} (src/http/v2/orgs.routes.ts), passes the feature_flags of its parsed body, which nothing keeps or changes afterwards, and nothing changes a profile's featureFlags in place (orgDto and the state export copy it)",
  },
  {
    file: ORGS_SVC,
    mutator: 'ConditionalExpression',
    original: 'd.org.id !== exceptId',
    replacement: 'true',
    equivalent:
      "exceptId is undefined for createNamed (no organization id is undefined) and the edited organization for edit(), which calls assertNameFree only when the new name differs from that organization's own: the one organization this part spares fails the name test anyway",
  },
  { file: ORGS_SVC, mutator: 'ConditionalExpression', original: ORGS_CACHE_SIZE, replacement: 'true', equivalent: ORGS_CACHE_ONLY },
  { file: ORGS_SVC, mutator: 'ConditionalExpression', original: ORGS_CACHE_SIZE, replacement: 'false', equivalent: ORGS_CACHE_ONLY },
  { file: ORGS_SVC, mutator: 'EqualityOperator', original: ORGS_CACHE_SIZE, replacement: 'this.verified.size > 1_000', equivalent: ORGS_CACHE_ONLY },
  { file: ORGS_SVC, mutator: 'EqualityOperator', original: ORGS_CACHE_SIZE, replacement: 'this.verified.size < 1_000', equivalent: ORGS_CACHE_ONLY },
);

const PRESET_DOC = 'src/domain/presets/preset-document.ts';
const PRESET_DOC_PARTIAL = "strength === 'partial'";
const PRESET_DOC_STORED = "strength === 'stored'";
const PRESET_DOC_FIXTURE_PARTS = 'take any part of the document; older view types and flags of their own still load';
const PRESET_DOC_CREATE_MINIMAL = 'creates a preset from the required parts: permissions left out are an ordinary participant’s';
const PRESET_SCHEMAS_AT_LOAD =
  'presetDocumentSchemas() runs when src/http/v2/presets.schemas.ts and src/store/fixtures.ts load, before Stryker switches a mutant on, and its schemas are kept for the whole test file: Stryker counts the code as reached by tests, yet no mutant of it ever takes effect (its static check sees only the mutated file loading)';
const PRESETS_SVC = 'src/domain/presets/presets.service.ts';
const PRESETS_SVC_NAMES_UNIQUE =
  'an organization holds one preset per name (create, PATCH and PUT answer 409 for a taken name; fixtures refuse two presets of one name in an organization), and putPreset keeps presetsByName in step (a renamed preset leaves its old name), so presetsByName maps a preset only under its own name';
const WEBHOOK_RULES = 'src/domain/webhooks/webhook-rules.ts';
const WEBHOOK_RULES_WANTS = 'webhook.enabled && webhook.events.includes(event)';
const WEBHOOK_RULES_NOTHING = 'disabled webhooks and unsubscribed events get nothing';
NOTES.push(
  {
    file: PRESET_DOC,
    mutator: 'ConditionalExpression',
    original: 'v !== null',
    replacement: 'true',
    killedBy: 'keeps a free-form config_diff as given, nulls included',
  },
  {
    file: PRESET_DOC,
    mutator: 'ConditionalExpression',
    original: 'own(patch, k) === undefined',
    replacement: 'true',
    equivalent:
      'every base field is then copied first, and the loop over the patch right after replaces each field the patch gives (the fields it skips, holding undefined, are those the original copies too): the same keys in the same order with the same values; the original only spares copying a subtree that is replaced',
  },
  {
    file: PRESET_DOC,
    mutator: 'ConditionalExpression',
    original: 'v === undefined',
    replacement: 'false',
    equivalent:
      'a patch field holding undefined then takes copy(from[k]): the base value where the base has the field (the same as skipping it), and otherwise a key holding undefined where the original leaves none. Request bodies are JSON and hold no undefined; only an in-process fixtures object (startEmulator({ fixtures }), a free-form ui.config_diff) can, and a preset leaves the emulator only as JSON (HTTP answers, state export, state file), where a key holding undefined and no key are the same',
  },
  {
    file: PRESET_DOC,
    mutator: 'ConditionalExpression',
    original: PRESET_DOC_PARTIAL,
    replacement: 'true',
    killedBy: 'rejects config without max_video_streams with 400 and creates nothing',
    outOfReach: PRESET_SCHEMAS_AT_LOAD,
  },
  {
    file: PRESET_DOC,
    mutator: 'ConditionalExpression',
    original: PRESET_DOC_PARTIAL,
    replacement: 'false',
    killedBy: PRESET_DOC_FIXTURE_PARTS,
    outOfReach: PRESET_SCHEMAS_AT_LOAD,
  },
  {
    file: PRESET_DOC,
    mutator: 'EqualityOperator',
    original: PRESET_DOC_PARTIAL,
    replacement: "strength !== 'partial'",
    killedBy: PRESET_DOC_FIXTURE_PARTS,
    outOfReach: PRESET_SCHEMAS_AT_LOAD,
  },
  {
    file: PRESET_DOC,
    mutator: 'ConditionalExpression',
    original: PRESET_DOC_STORED,
    replacement: 'true',
    killedBy: PRESET_DOC_CREATE_MINIMAL,
    outOfReach: PRESET_SCHEMAS_AT_LOAD,
  },
  {
    file: PRESET_DOC,
    mutator: 'ConditionalExpression',
    original: PRESET_DOC_STORED,
    replacement: 'false',
    killedBy: 'the served OpenAPI reference requires every field of an answered preset, those create may leave out too',
    outOfReach: PRESET_SCHEMAS_AT_LOAD,
  },
  {
    file: PRESET_DOC,
    mutator: 'EqualityOperator',
    original: PRESET_DOC_STORED,
    replacement: "strength !== 'stored'",
    killedBy: PRESET_DOC_CREATE_MINIMAL,
    outOfReach: PRESET_SCHEMAS_AT_LOAD,
  },
  {
    file: PRESET_DOC,
    mutator: 'MethodExpression',
    original: 'count.max(30)',
    replacement: 'count.min(30)',
    killedBy: 'rejects a video frame rate over 30 with 400 and creates nothing',
    outOfReach: PRESET_SCHEMAS_AT_LOAD,
  },
  {
    file: PRESET_DOC,
    mutator: 'ObjectLiteral',
    original: '{ access_control: need(z.enum(PLUGIN_ACCESS)), handles_view_only: need(bool) }',
    replacement: '{}',
    killedBy: 'a plugin config id replaced by its access object keeps a whole document',
    outOfReach: PRESET_SCHEMAS_AT_LOAD,
  },
  {
    file: PRESET_DOC,
    mutator: 'ObjectLiteral',
    original: "{ '300': need(color), '400': need(color), '500': need(color), '600': need(color), '700': need(color) }",
    replacement: '{}',
    killedBy: 'changes only the given fields, at any depth; updated_at moves, created_at stays',
    outOfReach: PRESET_SCHEMAS_AT_LOAD,
  },
  {
    file: PRESET_DOC,
    mutator: 'ObjectLiteral',
    original: "{ '600': need(color), '700': need(color), '800': need(color), '900': need(color), '1000': need(color) }",
    replacement: '{}',
    killedBy: PRESET_DOC_CREATE_MINIMAL,
    outOfReach: PRESET_SCHEMAS_AT_LOAD,
  },
  {
    file: PRESETS_SVC,
    mutator: 'ConditionalExpression',
    original: 'p.view_type === undefined',
    replacement: 'false',
    equivalent:
      '`{ view_type: undefined, ...p.config }` differs from `p.config` only by a view_type holding undefined where the fixture gives none, and mergeDocument treats a field holding undefined as not given: view_type is in PRESET_DEFAULTS.config, so the first loop copies the default and the second skips the undefined',
  },
  {
    file: PRESETS_SVC,
    mutator: 'ConditionalExpression',
    original: 'name !== current.name',
    replacement: 'true',
    equivalent: `with the preset's own name, assertNameFree finds the preset itself (holder.id === self) and lets it pass: ${PRESETS_SVC_NAMES_UNIQUE}. (One gap: default_presets is not checked for duplicate names; with two of one name, PATCH of the first would answer 409 under the mutant)`,
  },
  {
    file: PRESETS_SVC,
    mutator: 'ConditionalExpression',
    original: 'next.name !== current.name',
    replacement: 'true',
    equivalent:
      "without a rename the loop writes each of the preset's participants back with the name it already has: adding a participant and a participant's PATCH take presetId and presetName from the same preset, and every rename goes through this loop. Only a hand-written fixtures or state document can give a participant a preset_name other than its preset's",
  },
  {
    file: PRESETS_SVC,
    mutator: 'ConditionalExpression',
    original: 'p.presetId === current.id',
    replacement: 'true',
    killedBy: 'a rename leaves the participants added with other presets naming theirs',
  },
  {
    file: PRESETS_SVC,
    mutator: 'ConditionalExpression',
    original: 'holder.id !== self',
    replacement: 'true',
    equivalent: `create passes self = undefined (no holder has that id); save calls it only for a name other than the preset's own (name !== current.name), and ${PRESETS_SVC_NAMES_UNIQUE}, so the holder of another name is never the preset itself`,
  },
  { file: WEBHOOK_RULES, mutator: 'ConditionalExpression', original: WEBHOOK_RULES_WANTS, replacement: 'true', killedBy: WEBHOOK_RULES_NOTHING },
  {
    file: WEBHOOK_RULES,
    mutator: 'LogicalOperator',
    original: WEBHOOK_RULES_WANTS,
    replacement: 'webhook.enabled || webhook.events.includes(event)',
    killedBy: WEBHOOK_RULES_NOTHING,
  },
  {
    file: 'src/domain/webhooks/webhooks.service.ts',
    mutator: 'ConditionalExpression',
    original: 'wantsEvent(w, event)',
    replacement: 'true',
    killedBy: WEBHOOK_RULES_NOTHING,
  },
);

const JSON_SYNTAX = 'src/http/json-syntax.ts';
const JS_HEX = '/^[0-9a-fA-F]$/';
const JS_ONE_CHAR =
  'isHex is only given text[i], one UTF-16 code unit (undefined is answered before the test): for a string of one character, the regular expression with either anchor alone matches exactly what it matches with both';
const JS_NO_JSON = 'is JSON: no error';
const JS_END_TOO_EARLY =
  "readString gives it only when its loop ran off the end of the text (i >= n), and fail() then answers 'the body ends too early' instead of the reason it is given: the text is never shown";
const JS_NOTHING_TO_READ =
  "at the end of the text (empty, or only whitespace) both ways give the same answer at the same offset: the check refuses undefined as not { or [, and without it the value state's readNumber refuses undefined as no value; fail() answers 'the body ends too early' for either, since i >= n";
NOTES.push(
  { file: JSON_SYNTAX, mutator: 'Regex', original: JS_HEX, replacement: '/[0-9a-fA-F]$/', equivalent: JS_ONE_CHAR },
  { file: JSON_SYNTAX, mutator: 'Regex', original: JS_HEX, replacement: '/^[0-9a-fA-F]/', equivalent: JS_ONE_CHAR },
  { file: JSON_SYNTAX, mutator: 'EqualityOperator', original: 'i >= 0', replacement: 'i > 0', killedBy: 'lines are counted from a newline at the very start' },
  {
    file: JSON_SYNTAX,
    mutator: 'EqualityOperator',
    original: 'i < offset',
    replacement: 'i <= offset',
    killedBy: 'a newline that is itself the offending character still belongs to its line',
  },
  {
    file: JSON_SYNTAX,
    mutator: 'ConditionalExpression',
    original: 'i < n',
    replacement: 'true',
    equivalent:
      "in skipSpace, text[n] is undefined, which equals none of ' ', '\\t', '\\n', '\\r', so the loop stops at the end of the text anyway; at the first character, see the note on i < n → i <= n",
  },
  { file: JSON_SYNTAX, mutator: 'ConditionalExpression', original: "text[i] === '\\t'", replacement: 'false', killedBy: JS_NO_JSON },
  { file: JSON_SYNTAX, mutator: 'ConditionalExpression', original: "text[i] === '\\r'", replacement: 'false', killedBy: JS_NO_JSON },
  { file: JSON_SYNTAX, mutator: 'StringLiteral', original: "'\\r'", replacement: '""', killedBy: JS_NO_JSON },
  { file: JSON_SYNTAX, mutator: 'ConditionalExpression', original: "text[i] === 'E'", replacement: 'false', killedBy: JS_NO_JSON },
  { file: JSON_SYNTAX, mutator: 'StringLiteral', original: "'E'", replacement: '""', killedBy: JS_NO_JSON },
  { file: JSON_SYNTAX, mutator: 'EqualityOperator', original: 'i < end', replacement: 'i <= end', killedBy: JS_NO_JSON },
  { file: JSON_SYNTAX, mutator: 'StringLiteral', original: "'a string is not closed'", replacement: '""', equivalent: JS_END_TOO_EARLY },
  { file: JSON_SYNTAX, mutator: 'EqualityOperator', original: 'i < n', replacement: 'i <= n', equivalent: JS_NOTHING_TO_READ },
  {
    file: JSON_SYNTAX,
    mutator: 'StringLiteral',
    original: `"expected ':' after a property name"`,
    replacement: '""',
    killedBy: 'a property name without its colon is named so',
  },
);

const AUTH = 'src/http/auth.ts';
const JWT_SHAPE = '/^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]*$/';
const BASE64_SHAPE = '/^[A-Za-z0-9+/]+={0,2}$/';
const OUTSIDE_BASE64 = 'Basic with a character outside base64';
NOTES.push(
  {
    file: AUTH,
    mutator: 'EqualityOperator',
    original: 'space < 0',
    replacement: 'space <= 0',
    equivalent:
      "a header value never starts with a space: Node's HTTP parser strips the whitespace around a field value before the app reads it, so the first space is never at index 0",
  },
  {
    file: AUTH,
    mutator: 'MethodExpression',
    original: 'header.slice(space + 1).trim()',
    replacement: 'header.slice(space + 1)',
    killedBy: 'are read after any run of spaces that follows the scheme, as HTTP allows',
  },
  {
    file: AUTH,
    mutator: 'Regex',
    original: JWT_SHAPE,
    replacement: '/[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]*$/',
    killedBy: 'a Bearer value with two dots after a character no JWT holds',
  },
  {
    file: AUTH,
    mutator: 'Regex',
    original: JWT_SHAPE,
    replacement: '/^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]*/',
    killedBy: 'a Bearer value with two dots before a character no JWT holds',
  },
  {
    file: AUTH,
    mutator: 'ConditionalExpression',
    original: `!${BASE64_SHAPE}.test(credentials)`,
    replacement: 'false',
    killedBy: `${OUTSIDE_BASE64} inside the credentials`,
  },
  { file: AUTH, mutator: 'Regex', original: BASE64_SHAPE, replacement: '/[A-Za-z0-9+/]+={0,2}$/', killedBy: `${OUTSIDE_BASE64} before the credentials` },
  { file: AUTH, mutator: 'Regex', original: BASE64_SHAPE, replacement: '/^[A-Za-z0-9+/]+={0,2}/', killedBy: `${OUTSIDE_BASE64} after the credentials` },
  { file: AUTH, mutator: 'EqualityOperator', original: 'colon < 0', replacement: 'colon <= 0', killedBy: 'answers 401 with an empty organization id' },
  {
    file: AUTH,
    mutator: 'ConditionalExpression',
    original: 'p.meetingId !== claims.meetingId',
    replacement: 'false',
    killedBy: 'a token opens nothing once a state import puts its participant in another meeting',
  },
  {
    file: AUTH,
    mutator: 'StringLiteral',
    original: "'Invalid or expired participant token'",
    replacement: '""',
    killedBy: 'participants added with it keep its name; their tokens stop working; a new preset brings them back',
  },
  {
    file: AUTH,
    mutator: 'StringLiteral',
    original: "''",
    replacement: '"Stryker was here!"',
    equivalent:
      'every route that takes an account token has {account_id} in its path (src/http/realtimekit/realtimekit.routes.ts builds them all under one prefix), so the parameter is never missing',
  },
  {
    file: AUTH,
    mutator: 'ConditionalExpression',
    original: "auth.kind === 'account'",
    replacement: 'false',
    equivalent:
      "callerApi's one caller, webhook creation (src/http/v2/webhooks.routes.ts), reads orgOf(auth) first, which refuses an account-level auth; and that route's RealtimeKit path names an app, so its auth is never of the account kind",
  },
);

const CLIENT_ERROR = 'src/http/client-error.ts';
const CE_REFUSE = "err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent";
const CE_GONE_OR_BEGUN = 'nothing is written, and the connection is closed';
const VALIDATION = 'src/http/validation.ts';
const VA_THROUGH = "v === null || typeof v !== 'object'";
const VA_EMPTY_LIST = 'an empty string that a transform turned into a list';
const VA_NULL_LIST = 'a null that a transform turned into a list';
const VA_KEYS = "issue.origin === 'object' || issue.origin === 'record'";
const VA_RECORD_KEYS = 'rejects attributes of 51 entries';
const VA_OBJECT_KEYS = 'an object with more keys than its check allows';
NOTES.push(
  {
    file: CLIENT_ERROR,
    mutator: 'StringLiteral',
    original: "''",
    replacement: '"Stryker was here!"',
    equivalent:
      "errorOf answers only 400, 408, 413 and 431 (malformedRequest, requestTimeout, payloadTooLarge, headersTooLarge), and Node's STATUS_CODES has a reason phrase for each (Bad Request, Request Timeout, Payload Too Large, Request Header Fields Too Large): the ?? '' fallback is never taken",
  },
  { file: CLIENT_ERROR, mutator: 'ConditionalExpression', original: CE_REFUSE, replacement: 'false', killedBy: CE_GONE_OR_BEGUN },
  {
    file: CLIENT_ERROR,
    mutator: 'LogicalOperator',
    original: CE_REFUSE,
    replacement: "(err.code === 'ECONNRESET' || !socket.writable) && inFlight?.headersSent",
    killedBy: CE_GONE_OR_BEGUN,
  },
  {
    file: CLIENT_ERROR,
    mutator: 'ConditionalExpression',
    original: "err.code === 'ECONNRESET' || !socket.writable",
    replacement: 'false',
    killedBy: CE_GONE_OR_BEGUN,
  },
  {
    file: CLIENT_ERROR,
    mutator: 'LogicalOperator',
    original: "err.code === 'ECONNRESET' || !socket.writable",
    replacement: "err.code === 'ECONNRESET' && !socket.writable",
    killedBy: CE_GONE_OR_BEGUN,
  },
  {
    file: CLIENT_ERROR,
    mutator: 'ConditionalExpression',
    original: "err.code === 'ECONNRESET'",
    replacement: 'false',
    killedBy: 'the client reset the connection',
  },
  { file: CLIENT_ERROR, mutator: 'StringLiteral', original: "'ECONNRESET'", replacement: '""', killedBy: 'the client reset the connection' },
  { file: CLIENT_ERROR, mutator: 'BlockStatement', original: '{ socket.destroy(); return; }', replacement: '{}', killedBy: CE_GONE_OR_BEGUN },
  {
    file: CLIENT_ERROR,
    mutator: 'ArrowFunction',
    original: '() => socket.destroy()',
    replacement: '() => undefined',
    killedBy: 'the 400 is written, then the connection is closed',
  },
  { file: VALIDATION, mutator: 'ConditionalExpression', original: VA_THROUGH, replacement: 'false', killedBy: VA_EMPTY_LIST },
  { file: VALIDATION, mutator: 'LogicalOperator', original: VA_THROUGH, replacement: "v === null && typeof v !== 'object'", killedBy: VA_EMPTY_LIST },
  { file: VALIDATION, mutator: 'ConditionalExpression', original: 'v === null', replacement: 'false', killedBy: VA_NULL_LIST },
  { file: VALIDATION, mutator: 'ConditionalExpression', original: "typeof v !== 'object'", replacement: 'false', killedBy: VA_EMPTY_LIST },
  { file: VALIDATION, mutator: 'StringLiteral', original: '`of type ${issue.expected}`', replacement: '``', killedBy: 'a type without a word of its own' },
  { file: VALIDATION, mutator: 'ConditionalExpression', original: "issue.origin === 'set'", replacement: 'false', killedBy: 'a set with too' },
  { file: VALIDATION, mutator: 'StringLiteral', original: "'set'", replacement: '""', killedBy: 'a set with too' },
  { file: VALIDATION, mutator: 'ConditionalExpression', original: VA_KEYS, replacement: 'false', killedBy: VA_OBJECT_KEYS },
  {
    file: VALIDATION,
    mutator: 'LogicalOperator',
    original: VA_KEYS,
    replacement: "issue.origin === 'object' && issue.origin === 'record'",
    killedBy: VA_OBJECT_KEYS,
  },
  { file: VALIDATION, mutator: 'ConditionalExpression', original: "issue.origin === 'object'", replacement: 'false', killedBy: VA_OBJECT_KEYS },
  { file: VALIDATION, mutator: 'StringLiteral', original: "'object'", replacement: '""', killedBy: VA_OBJECT_KEYS },
  { file: VALIDATION, mutator: 'ConditionalExpression', original: "issue.origin === 'record'", replacement: 'false', killedBy: VA_RECORD_KEYS },
  { file: VALIDATION, mutator: 'StringLiteral', original: "'record'", replacement: '""', killedBy: VA_RECORD_KEYS },
  {
    file: VALIDATION,
    mutator: 'StringLiteral',
    original: '`${name} must have less than or equal to ${max} keys`',
    replacement: '``',
    killedBy: VA_RECORD_KEYS,
  },
  { file: VALIDATION, mutator: 'ConditionalExpression', original: "issue.format === 'guid'", replacement: 'false', killedBy: 'guid (any version)' },
  { file: VALIDATION, mutator: 'StringLiteral', original: "'guid'", replacement: '""', killedBy: 'guid (any version)' },
);

const DELIVERIES = 'src/http/control/deliveries.routes.ts';
NOTES.push(
  {
    file: DELIVERIES,
    mutator: 'BlockStatement',
    original: '{\n    timer = setTimeout(resolve, deps.webhooks.outbox.timeoutMs + 1_000);\n  }',
    replacement: '{}',
    killedBy: 'answers one second past the timeout while new attempts keep starting, listing those in flight',
  },
  {
    file: DELIVERIES,
    mutator: 'ArithmeticOperator',
    original: 'deps.webhooks.outbox.timeoutMs + 1_000',
    replacement: 'deps.webhooks.outbox.timeoutMs - 1_000',
    killedBy: 'waits for an attempt that takes the whole timeout, and lists it finished',
  },
  {
    file: 'src/http/control/system.routes.ts',
    mutator: 'StringLiteral',
    original: "'Control: system'",
    replacement: '""',
    killedBy: 'every /_emulator operation sits under one of the control tags, this document itself under Control: system',
  },
);

const MEDIA_ROUTES = 'src/http/media/media.routes.ts';
const RANGE = 'src/http/media/range.ts';
const RTK_ROUTES = 'src/http/realtimekit/realtimekit.routes.ts';
const V1_SCHEMAS = 'src/http/v1/schemas.ts';
const RG_NO_MATCH =
  "the regex always matches where it runs: range-parser answers -1 (unsatisfiable) only when the header has an '=' and every part after it is digits or empty once trimmed around one '-' (a missing '-' or any other character is -2, ignored before), and JS trim and \\s strip the same white space; so the ?? [] and the '' defaults are never taken";
const RG_EMPTY_FILE = 'an empty sample segment is served as 0 bytes, and a suffix Range of it is 416';
const RK_GUARDS = 'stops the table from being built, naming the route';
const RK_TWIN_DESCRIBED = 'a v2 route added to the table gets a twin under the prefix, described as the RealtimeKit form';
const V1_TOO_MANY =
  "the issue's only reader is issueMessage (src/http/validation.ts, through parseWith in src/http/mount.ts), whose too_big case words a record's issue from its origin and maximum alone (\"attributes\" must have less than or equal to 50 keys, pinned by 'rejects attributes of 51 entries'); inclusive and message feed only zod's own text, which no answer, log or document shows";
NOTES.push(
  { file: MEDIA_ROUTES, mutator: 'StringLiteral', original: "'_'", replacement: '""', killedBy: 'a file name with quotes or a backslash' },
  {
    file: MEDIA_ROUTES,
    mutator: 'StringLiteral',
    original: '`${params.file}.m4a`',
    replacement: '``',
    killedBy: 'audio_download_url turns only the final .mp4',
  },
  {
    file: MEDIA_ROUTES,
    mutator: 'ConditionalExpression',
    original: 'hls.length === 0',
    replacement: 'false',
    killedBy: 'without sample segments (a media folder with no hls/segments.json) a LIVE livestream',
  },
  { file: MEDIA_ROUTES, mutator: 'StringLiteral', original: '`${seq}.ts`', replacement: '``', killedBy: 'serves listed segments as MPEG-TS' },
  {
    file: RANGE,
    mutator: 'MethodExpression',
    original: "header.slice(0, header.indexOf('=')).trim()",
    replacement: "header.slice(0, header.indexOf('='))",
    killedBy: 'Range bytes =0-99',
  },
  { file: RANGE, mutator: 'StringLiteral', original: "''", replacement: '"Stryker was here!"', equivalent: RG_NO_MATCH },
  { file: RANGE, mutator: 'ArrayDeclaration', original: '[]', replacement: '["Stryker was here"]', equivalent: RG_NO_MATCH },
  { file: RANGE, mutator: 'Regex', original: '/=\\s*(\\d*)\\s*-\\s*(\\d*)/', replacement: '/=\\s*(\\d*)\\S*-\\s*(\\d*)/', killedBy: 'Range bytes=9 -5' },
  { file: RANGE, mutator: 'ConditionalExpression', original: 'size > 0', replacement: 'true', killedBy: RG_EMPTY_FILE },
  { file: RANGE, mutator: 'EqualityOperator', original: 'size > 0', replacement: 'size >= 0', killedBy: RG_EMPTY_FILE },
  {
    file: RANGE,
    mutator: 'EqualityOperator',
    original: 'Number(last) > size',
    replacement: 'Number(last) >= size',
    equivalent:
      'a suffix as long as the file never gets here: range-parser answers it itself (bytes=-N with N = size is the range 0 to size - 1), so a suffix reaches this line only when it is 0 or longer than the file, and 0 >= size is false for the size > 0 this line also asks',
  },
  { file: RTK_ROUTES, mutator: 'StringLiteral', original: '`${V2_PREFIX}/`', replacement: '``', killedBy: RK_GUARDS },
  { file: RTK_ROUTES, mutator: 'StringLiteral', original: '`${r.path}: a v2 route lives under ${V2_PREFIX}/`', replacement: '``', killedBy: RK_GUARDS },
  {
    file: RTK_ROUTES,
    mutator: 'StringLiteral',
    original: '`${r.method} ${r.path}: path parameters must be a z.object to be extended`',
    replacement: '``',
    killedBy: RK_GUARDS,
  },
  {
    file: RTK_ROUTES,
    mutator: 'StringLiteral',
    original: '`${r.method.toUpperCase()} ${r.path}`',
    replacement: '``',
    killedBy: RK_TWIN_DESCRIBED,
  },
  {
    file: RTK_ROUTES,
    mutator: 'StringLiteral',
    original: "''",
    replacement: '"Stryker was here!"',
    killedBy: RK_TWIN_DESCRIBED,
  },
  {
    file: RTK_ROUTES,
    mutator: 'ConditionalExpression',
    original: '!twin',
    replacement: 'true',
    equivalent:
      "the map of twins only saves work: without it each app builds its twins afresh from the same module-constant routes, equal in path, parameters, description and handler, so every request and the served OpenAPI document are the same (the document's per-schema memo misses, which costs time only)",
  },
  { file: V1_SCHEMAS, mutator: 'BooleanLiteral', original: 'true', replacement: 'false', equivalent: V1_TOO_MANY },
  { file: V1_SCHEMAS, mutator: 'StringLiteral', original: "'too many keys'", replacement: '""', equivalent: V1_TOO_MANY },
);

const SESSIONS_MAPPERS = 'src/http/v2/sessions.mappers.ts';
NOTES.push(
  {
    file: SESSIONS_MAPPERS,
    mutator: 'StringLiteral',
    original: "''",
    replacement: '"Stryker was here!"',
    killedBy: 'of a meeting without a title shows an empty meeting_display_name',
  },
  {
    file: SESSIONS_MAPPERS,
    mutator: 'ObjectLiteral',
    original: '{ picture: p.picture }',
    replacement: '{}',
    killedBy: 'answers a kicked participant with its picture when it has one',
  },
);

NOTES.push({
  file: 'src/http/validation.ts',
  mutator: 'ConditionalExpression',
  original: "typeof key === 'number' && key < v.length",
  replacement: 'false',
  killedBy: 'a field missing from an item of a list is "required", named by its place in the list',
});

const DASHBOARD = 'src/http/control/dashboard.routes.ts';
const DASH_NO_PATH_OUT = 'answers x%2F..%2F..%2F..%2Fpackage.json with 404 "The dashboard has no file <name>", never a file outside the build';
const DASH_FLAT_NAME = '/^[\\w.-]+$/';
const DASH_NOT_BUILT = 'says how to build the dashboard when it is not built (404)';
const DASH_NO_FILE = 'answers nothing-here.js with 404 "The dashboard has no file <name>", never a file outside the build';
const DASH_IS_INDEX = "name === 'index.html'";
const DASH_HEAD_NO_BODY =
  "node:http sends no body in its answer to HEAD (a ServerResponse drops what end() is given for a HEAD request; checked over a raw socket), and content-length is set before either way, so a HEAD client sees the same status and headers; the app is a node:http handler (src/index.ts) served by node:http (src/runtime.ts) or supertest. At lines 82, 287 and 336; the same code in streamEvents (line 169), where HEAD ends the stream, is killed by 'answers HEAD with the headers of the stream'";
const DASH_IS_HEAD = "req.method === 'HEAD'";
const DASH_LANDING_CREDENTIALS =
  'gives a browser the v2 Authorization header of each fixture organization (as the README shows it), one per line, and varies on Accept';
const SSE_STREAMS = 'streams a hello, then domain events, requests and clock moves in the order they happened, with increasing ids';
const SSE_REPLAYS_LAST_ID = 'replays the history after Last-Event-ID to a client that reconnects (requests are not replayed: the journal has them)';
const SSE_REPLAYS_SINCE = 'replays what follows `since`, or Last-Event-ID when it is an id; all the history after an id it never gave';
const SSE_ID_HEADER = "typeof header === 'string' && /^\\d{1,15}$/.test(header)";
const SSE_ID_SHAPE = '/^\\d{1,15}$/';
const SSE_HEAD = 'answers HEAD with the headers of the stream (no caching, no proxy buffering) and closes at once';
const SSE_HEAD_OR_CLOSED = "req.method === 'HEAD' || deps.feed.isClosed";
const SSE_GONE = 'res.writableEnded || res.destroyed';
const SSE_WRITE_TO_GONE =
  "write() meets an ended or destroyed response only (a) after the feed's end() on shutdown, when the feed is closed and sends nothing more and the heartbeat is cleared, or (b) after res.destroy() (a client over 1 MiB behind, or gone before 'close' has run): node:http's write() on a destroyed response returns false and emits no error (ERR_STREAM_DESTROYED goes to the callback, and there is none), so the client sees the same stream; the events tests (slow client, shutdown, a client that goes away) pass with the mutant";
const SSE_BEHIND = 'res.writableLength > SSE_BUFFER_LIMIT';
const SSE_SLOW_CLIENT = 'lets go of a client that reads slower than events come, once it is over 1 MiB behind';
const SSE_REPLAY_FROM = 'lastSeen <= deps.feed.lastId';
const SSE_HEARTBEAT = 'sends a comment line every 15 s (real time) so that a quiet stream stays open';
NOTES.push(
  { file: DASHBOARD, mutator: 'BooleanLiteral', original: '!/^[\\w.-]+$/.test(name)', replacement: '/^[\\w.-]+$/.test(name)', killedBy: DASH_NO_PATH_OUT },
  { file: DASHBOARD, mutator: 'Regex', original: DASH_FLAT_NAME, replacement: '/[\\w.-]+$/', killedBy: DASH_NO_PATH_OUT },
  { file: DASHBOARD, mutator: 'Regex', original: DASH_FLAT_NAME, replacement: '/^[\\w.-]+/', killedBy: DASH_NO_PATH_OUT },
  { file: DASHBOARD, mutator: 'Regex', original: DASH_FLAT_NAME, replacement: '/^[\\w.-]$/', killedBy: DASH_NOT_BUILT },
  { file: DASHBOARD, mutator: 'Regex', original: DASH_FLAT_NAME, replacement: '/^[^\\w.-]+$/', killedBy: DASH_NOT_BUILT },
  { file: DASHBOARD, mutator: 'Regex', original: DASH_FLAT_NAME, replacement: '/^[\\W.-]+$/', killedBy: DASH_NOT_BUILT },
  { file: DASHBOARD, mutator: 'StringLiteral', original: "'.'", replacement: '""', killedBy: DASH_NOT_BUILT },
  {
    file: DASHBOARD,
    mutator: 'StringLiteral',
    original: '`The dashboard has no file ${name}`',
    replacement: '``',
    killedBy: 'answers a%2Fb.js with 404 "The dashboard has no file <name>", never a file outside the build',
  },
  {
    file: DASHBOARD,
    mutator: 'MethodExpression',
    original: "name.startsWith('.')",
    replacement: "name.endsWith('.')",
    equivalent:
      "a name ending in '.' has the extension '.', which has no content type, so `!type` has refused it already; and a name starting with '.' that the mutant lets through is looked up in dist/ui, where the build writes no dot-file with a served extension (its one dot-file, .inputs-hash, has none), so it answers the same 404 `The dashboard has no file <name>` (line 71)",
  },
  { file: DASHBOARD, mutator: 'ConditionalExpression', original: DASH_IS_INDEX, replacement: 'true', killedBy: DASH_NO_FILE },
  { file: DASHBOARD, mutator: 'ConditionalExpression', original: DASH_IS_INDEX, replacement: 'false', killedBy: DASH_NOT_BUILT },
  { file: DASHBOARD, mutator: 'EqualityOperator', original: DASH_IS_INDEX, replacement: "name !== 'index.html'", killedBy: DASH_NO_FILE },
  { file: DASHBOARD, mutator: 'StringLiteral', original: "'index.html'", replacement: '""', killedBy: DASH_NOT_BUILT },
  {
    file: DASHBOARD,
    mutator: 'StringLiteral',
    original: "'The dashboard is not built: run `npm run build` (or `npm start`, which builds it)'",
    replacement: '""',
    killedBy: DASH_NOT_BUILT,
  },
  { file: DASHBOARD, mutator: 'ConditionalExpression', original: DASH_IS_HEAD, replacement: 'false', equivalent: DASH_HEAD_NO_BODY },
  { file: DASHBOARD, mutator: 'StringLiteral', original: "'HEAD'", replacement: '""', equivalent: DASH_HEAD_NO_BODY },
  {
    file: DASHBOARD,
    mutator: 'StringLiteral',
    original: '`&#${c.charCodeAt(0)};`',
    replacement: '``',
    killedBy: 'shows an organization name from the fixtures as text, escaped, never as markup',
  },
  {
    file: DASHBOARD,
    mutator: 'MethodExpression',
    original: 'deps.fixtures.organizations\n    .filter((o) => deps.services.organizations.get(o.id))',
    replacement: 'deps.fixtures.organizations',
    killedBy: 'lists no fixture organization that an imported state no longer has',
  },
  { file: DASHBOARD, mutator: 'StringLiteral', original: '`${o.id}:${o.api_key}`', replacement: '``', killedBy: DASH_LANDING_CREDENTIALS },
  { file: DASHBOARD, mutator: 'StringLiteral', original: "'\\n'", replacement: '""', killedBy: DASH_LANDING_CREDENTIALS },
  {
    file: DASHBOARD,
    mutator: 'StringLiteral',
    original: '`id: ${m.id}\\nevent: ${m.kind}\\ndata: ${JSON.stringify(m.data)}\\n\\n`',
    replacement: '``',
    killedBy: SSE_STREAMS,
  },
  {
    file: DASHBOARD,
    mutator: 'BlockStatement',
    original:
      "{\n  const header = req.headers['last-event-id'];\n  const lastSeen = typeof header === 'string' && /^\\d{1,15}$/.test(header) ? Number(header) : since;\n  res.statusCode = 200;\n  res.setHeader('content-type', 'text/event-stream; charset=utf-8');\n  res.setHeader('cache-control', 'no-cache, no-transform');\n  res.setHeader('x-accel-buffering', 'no');\n  if (req.method === 'HEAD' || deps.feed.isClosed) {\n    res.setHeader('connection', 'close');\n    res.end();\n    return undefined;\n  }\n  const write = (text: string) => {\n    if (res.writableEnded || res.destroyed) return;\n    if (res.writableLength > SSE_BUFFER_LIMIT) {\n      res.destroy();\n      return;\n    }\n    res.write(text);\n  };\n  write(`retry: 2000\\n\\nevent: hello\\ndata: ${JSON.stringify({ ...deps.feed.clockData(), last_id: deps.feed.lastId })}\\n\\n`);\n  // An id this emulator never gave is from an earlier run (a restart): all the history is news then.\n  const after = lastSeen !== undefined && lastSeen <= deps.feed.lastId ? lastSeen : 0;\n  for (const m of deps.feed.since(after)) write(sseMessage(m));\n  const heartbeat = setInterval(() => write(': keep-alive\\n\\n'), SSE_HEARTBEAT_MS);\n  heartbeat.unref();\n  const unsubscribe = deps.feed.subscribe({\n    send: (m) => write(sseMessage(m)),\n    end: () => {\n      clearInterval(heartbeat);\n      // The connection goes with the stream: nothing else is sent on it during a shutdown.\n      res.end();\n      res.socket?.end();\n    },\n  });\n  res.once('close', () => {\n    clearInterval(heartbeat);\n    unsubscribe();\n  });\n  return undefined;\n}",
    replacement: '{}',
    killedBy: SSE_STREAMS,
  },
  { file: DASHBOARD, mutator: 'StringLiteral', original: "'last-event-id'", replacement: '""', killedBy: SSE_REPLAYS_LAST_ID },
  { file: DASHBOARD, mutator: 'ConditionalExpression', original: SSE_ID_HEADER, replacement: 'true', killedBy: SSE_REPLAYS_SINCE },
  { file: DASHBOARD, mutator: 'ConditionalExpression', original: SSE_ID_HEADER, replacement: 'false', killedBy: SSE_REPLAYS_LAST_ID },
  { file: DASHBOARD, mutator: 'Regex', original: SSE_ID_SHAPE, replacement: '/\\d{1,15}$/', killedBy: SSE_REPLAYS_SINCE },
  { file: DASHBOARD, mutator: 'Regex', original: SSE_ID_SHAPE, replacement: '/^\\d{1,15}/', killedBy: SSE_REPLAYS_SINCE },
  { file: DASHBOARD, mutator: 'Regex', original: SSE_ID_SHAPE, replacement: '/^\\d$/', killedBy: SSE_REPLAYS_SINCE },
  { file: DASHBOARD, mutator: 'Regex', original: SSE_ID_SHAPE, replacement: '/^\\D{1,15}$/', killedBy: SSE_REPLAYS_LAST_ID },
  { file: DASHBOARD, mutator: 'StringLiteral', original: "'content-type'", replacement: '""', killedBy: SSE_STREAMS },
  { file: DASHBOARD, mutator: 'StringLiteral', original: "'text/event-stream; charset=utf-8'", replacement: '""', killedBy: SSE_STREAMS },
  { file: DASHBOARD, mutator: 'StringLiteral', original: "'cache-control'", replacement: '""', killedBy: SSE_STREAMS },
  { file: DASHBOARD, mutator: 'StringLiteral', original: "'no-cache, no-transform'", replacement: '""', killedBy: SSE_HEAD },
  { file: DASHBOARD, mutator: 'StringLiteral', original: "'x-accel-buffering'", replacement: '""', killedBy: SSE_STREAMS },
  { file: DASHBOARD, mutator: 'StringLiteral', original: "'no'", replacement: '""', killedBy: SSE_HEAD },
  { file: DASHBOARD, mutator: 'ConditionalExpression', original: SSE_HEAD_OR_CLOSED, replacement: 'false', killedBy: SSE_HEAD },
  { file: DASHBOARD, mutator: 'LogicalOperator', original: SSE_HEAD_OR_CLOSED, replacement: "req.method === 'HEAD' && deps.feed.isClosed", killedBy: SSE_HEAD },
  { file: DASHBOARD, mutator: 'EqualityOperator', original: DASH_IS_HEAD, replacement: "req.method !== 'HEAD'", killedBy: SSE_STREAMS },
  {
    file: DASHBOARD,
    mutator: 'BlockStatement',
    original: "{\n    res.setHeader('connection', 'close');\n    res.end();\n    return undefined;\n  }",
    replacement: '{}',
    killedBy: SSE_HEAD,
  },
  { file: DASHBOARD, mutator: 'StringLiteral', original: "'connection'", replacement: '""', killedBy: SSE_HEAD },
  { file: DASHBOARD, mutator: 'StringLiteral', original: "'close'", replacement: '""', killedBy: SSE_HEAD },
  {
    file: DASHBOARD,
    mutator: 'BlockStatement',
    original:
      '{\n    if (res.writableEnded || res.destroyed) return;\n    if (res.writableLength > SSE_BUFFER_LIMIT) {\n      res.destroy();\n      return;\n    }\n    res.write(text);\n  }',
    replacement: '{}',
    killedBy: SSE_STREAMS,
  },
  { file: DASHBOARD, mutator: 'ConditionalExpression', original: SSE_GONE, replacement: 'true', killedBy: SSE_STREAMS },
  { file: DASHBOARD, mutator: 'ConditionalExpression', original: SSE_GONE, replacement: 'false', equivalent: SSE_WRITE_TO_GONE },
  { file: DASHBOARD, mutator: 'LogicalOperator', original: SSE_GONE, replacement: 'res.writableEnded && res.destroyed', equivalent: SSE_WRITE_TO_GONE },
  { file: DASHBOARD, mutator: 'ConditionalExpression', original: SSE_BEHIND, replacement: 'true', killedBy: SSE_STREAMS },
  { file: DASHBOARD, mutator: 'ConditionalExpression', original: SSE_BEHIND, replacement: 'false', killedBy: SSE_SLOW_CLIENT },
  { file: DASHBOARD, mutator: 'EqualityOperator', original: SSE_BEHIND, replacement: 'res.writableLength <= SSE_BUFFER_LIMIT', killedBy: SSE_STREAMS },
  { file: DASHBOARD, mutator: 'BlockStatement', original: '{\n      res.destroy();\n      return;\n    }', replacement: '{}', killedBy: SSE_SLOW_CLIENT },
  {
    file: DASHBOARD,
    mutator: 'StringLiteral',
    original: '`retry: 2000\\n\\nevent: hello\\ndata: ${JSON.stringify({ ...deps.feed.clockData(), last_id: deps.feed.lastId })}\\n\\n`',
    replacement: '``',
    killedBy: SSE_STREAMS,
  },
  { file: DASHBOARD, mutator: 'ObjectLiteral', original: '{ ...deps.feed.clockData(), last_id: deps.feed.lastId }', replacement: '{}', killedBy: SSE_STREAMS },
  { file: DASHBOARD, mutator: 'ConditionalExpression', original: SSE_REPLAY_FROM, replacement: 'true', killedBy: SSE_REPLAYS_SINCE },
  { file: DASHBOARD, mutator: 'EqualityOperator', original: SSE_REPLAY_FROM, replacement: 'lastSeen < deps.feed.lastId', killedBy: SSE_REPLAYS_SINCE },
  { file: DASHBOARD, mutator: 'EqualityOperator', original: SSE_REPLAY_FROM, replacement: 'lastSeen > deps.feed.lastId', killedBy: SSE_REPLAYS_LAST_ID },
  { file: DASHBOARD, mutator: 'ArrowFunction', original: "() => write(': keep-alive\\n\\n')", replacement: '() => undefined', killedBy: SSE_HEARTBEAT },
  { file: DASHBOARD, mutator: 'StringLiteral', original: "': keep-alive\\n\\n'", replacement: '""', killedBy: SSE_HEARTBEAT },
  { file: DASHBOARD, mutator: 'ArrowFunction', original: '(m) => write(sseMessage(m))', replacement: '() => undefined', killedBy: SSE_STREAMS },
  {
    file: DASHBOARD,
    mutator: 'BlockStatement',
    original:
      '{\n      clearInterval(heartbeat);\n      // The connection goes with the stream: nothing else is sent on it during a shutdown.\n      res.end();\n      res.socket?.end();\n    }',
    replacement: '{}',
    killedBy: 'ends open streams on shutdown instead of holding it open, and keeps no listener',
  },
  {
    file: DASHBOARD,
    mutator: 'BlockStatement',
    original: '{\n    clearInterval(heartbeat);\n    unsubscribe();\n  }',
    replacement: '{}',
    killedBy: SSE_SLOW_CLIENT,
  },
  { file: DASHBOARD, mutator: 'StringLiteral', original: "'accept'", replacement: '""', killedBy: DASH_LANDING_CREDENTIALS },
  {
    file: DASHBOARD,
    mutator: 'StringLiteral',
    original: '`No documentation page ${params.file}`',
    replacement: '``',
    killedBy: 'serves a documentation page of the package, and nothing outside docs/',
  },
);

// sendUiFile: the tests serve a stand-in build (config.uiDir), so these run in every tree.
const UI_BR = "Accept-Encoding 'br': sends 'index.html.br'";
const UI_GZIP = "Accept-Encoding 'gzip': sends 'index.html.gz'";
const UI_PLAIN = "Accept-Encoding 'deflate': sends 'index.html'";
const UI_PAGE = 'serves the built page as sent by the build, checked on every load (no-cache), varying on Accept-Encoding';
const UI_CHUNK = 'serves assets/chunk-ABCD1234.js as text/javascript; charset=utf-8, cached: public, max-age=31536000, immutable';
const UI_NOT_CHUNK = 'serves assets/data-ABCD1234.json as application/json; charset=utf-8, cached: no-cache';
const UI_ACCEPTED = "req.headers['accept-encoding'] ?? ''";
const UI_COPY = "encoding === 'br'";
const UI_CHUNK_NAME = '/-[A-Z0-9]{8}\\.js$/';
NOTES.push(
  { file: DASHBOARD, mutator: 'LogicalOperator', original: UI_ACCEPTED, replacement: "req.headers['accept-encoding'] && ''", killedBy: UI_BR },
  { file: DASHBOARD, mutator: 'StringLiteral', original: "'accept-encoding'", replacement: '""', killedBy: UI_BR },
  {
    file: DASHBOARD,
    mutator: 'StringLiteral',
    original: "''",
    replacement: '"Stryker was here!"',
    equivalent: 'the text stands for a missing Accept-Encoding, and "Stryker was here!" holds neither the word br nor gzip: the plain file is sent either way',
  },
  { file: DASHBOARD, mutator: 'ConditionalExpression', original: '/\\bbr\\b/.test(accepted)', replacement: 'true', killedBy: UI_GZIP },
  { file: DASHBOARD, mutator: 'ConditionalExpression', original: '/\\bbr\\b/.test(accepted)', replacement: 'false', killedBy: UI_BR },
  { file: DASHBOARD, mutator: 'ConditionalExpression', original: '/\\bgzip\\b/.test(accepted)', replacement: 'true', killedBy: UI_PLAIN },
  { file: DASHBOARD, mutator: 'ConditionalExpression', original: '/\\bgzip\\b/.test(accepted)', replacement: 'false', killedBy: UI_GZIP },
  { file: DASHBOARD, mutator: 'StringLiteral', original: "`${file}.${encoding === 'br' ? 'br' : 'gz'}`", replacement: '``', killedBy: UI_BR },
  { file: DASHBOARD, mutator: 'ConditionalExpression', original: UI_COPY, replacement: 'true', killedBy: UI_GZIP },
  { file: DASHBOARD, mutator: 'ConditionalExpression', original: UI_COPY, replacement: 'false', killedBy: UI_BR },
  { file: DASHBOARD, mutator: 'EqualityOperator', original: UI_COPY, replacement: "encoding !== 'br'", killedBy: UI_BR },
  { file: DASHBOARD, mutator: 'StringLiteral', original: "'br'", replacement: '""', killedBy: UI_BR },
  { file: DASHBOARD, mutator: 'StringLiteral', original: "'gz'", replacement: '""', killedBy: UI_GZIP },
  { file: DASHBOARD, mutator: 'StringLiteral', original: "'content-encoding'", replacement: '""', killedBy: UI_BR },
  { file: DASHBOARD, mutator: 'StringLiteral', original: "'vary'", replacement: '""', killedBy: UI_PAGE },
  { file: DASHBOARD, mutator: 'Regex', original: UI_CHUNK_NAME, replacement: '/-[A-Z0-9]{8}\\.js/', killedBy: UI_NOT_CHUNK },
  { file: DASHBOARD, mutator: 'Regex', original: UI_CHUNK_NAME, replacement: '/-[A-Z0-9]\\.js$/', killedBy: UI_CHUNK },
  { file: DASHBOARD, mutator: 'Regex', original: UI_CHUNK_NAME, replacement: '/-[^A-Z0-9]{8}\\.js$/', killedBy: UI_CHUNK },
  { file: DASHBOARD, mutator: 'StringLiteral', original: "'public, max-age=31536000, immutable'", replacement: '""', killedBy: UI_CHUNK },
  { file: DASHBOARD, mutator: 'StringLiteral', original: "'no-cache'", replacement: '""', killedBy: UI_PAGE },
  { file: DASHBOARD, mutator: 'StringLiteral', original: "'content-length'", replacement: '""', killedBy: UI_PAGE },
  { file: DASHBOARD, mutator: 'ConditionalExpression', original: DASH_IS_HEAD, replacement: 'true', killedBy: UI_PAGE },
  {
    file: DASHBOARD,
    mutator: 'EqualityOperator',
    original: SSE_BEHIND,
    replacement: 'res.writableLength >= SSE_BUFFER_LIMIT',
    equivalent:
      "writableLength counts what the kernel has not taken from the socket yet, and how much its buffers take is the OS's affair: no client can be held exactly 1 MiB behind on purpose, and one byte past it the two agree (the slow-client test lets go of a client far past the limit either way)",
  },
);

const V2_SCHEMAS = 'src/http/v2/schemas.ts';
const TRACK_SCHEMAS = 'src/http/v2/track-recordings.schemas.ts';
const MISSING_ONLY =
  'issueMessage (src/http/validation.ts) renders an invalid_type issue of a field the body does not hold as `is required`, reading neither `expected` nor `message`, and this issue is raised only when the field is absent';
NOTES.push(
  { file: V2_SCHEMAS, mutator: 'StringLiteral', original: "'string'", replacement: '""', equivalent: MISSING_ONLY },
  { file: V2_SCHEMAS, mutator: 'StringLiteral', original: "'required'", replacement: '""', equivalent: MISSING_ONLY },
  {
    file: V2_SCHEMAS,
    mutator: 'ConditionalExpression',
    original: 'b.custom_participant_id !== b.client_specific_id',
    replacement: 'true',
    killedBy: 'changes the client id through either spelling, or both with one value',
  },
  { file: V2_SCHEMAS, mutator: 'MethodExpression', original: 's.trim()', replacement: 's', killedBy: 'filters with status=RECORDING,%20INVOKED' },
  {
    file: 'src/http/v2/sessions.schemas.ts',
    mutator: 'MethodExpression',
    original: "v.split(',').filter(Boolean)",
    replacement: "v.split(',')",
    killedBy: 'one participant with call statistics: events only with filters=events',
  },
  { file: TRACK_SCHEMAS, mutator: 'StringLiteral', original: "'object'", replacement: '""', killedBy: 'a STORAGE_CONFIG output whose config is null' },
  {
    file: TRACK_SCHEMAS,
    mutator: 'StringLiteral',
    original: "'required'",
    replacement: '""',
    equivalent:
      'issueMessage (src/http/validation.ts) renders an invalid_type issue from `expected` alone (`is required` when the field is absent, `must be of type object` when it is null): the message is never read',
  },
);

const REQ_CTX = 'src/http/request-context.ts';
const QUERY_SHORTCUT = 'a shortcut only: Express parses an absent query string as {}, the value used without one';
const FEED_NEWS = "journaled || (resolved.api === 'control' && !READS.has(req.method))";
const FEED_CONTROL_WRITE = "resolved.api === 'control' && !READS.has(req.method)";
const FEED_SHORTCUT =
  'a shortcut: LiveFeed.request() (src/ui/live-feed.ts) returns at once when nobody listens, so the feed is the same either way; the check only spares building the message';
const FEED_NO_READS = "tells of no read of the control API (its own stream's among them): only what changes something is news";
const FEED_NO_TELEMETRY = 'the telemetry stays out of the dashboard’s live feed as well; the SDK’s other calls are in it';
const RL_BY_ADDRESS = 'counts a client without credentials by its address: another address has its own requests';
const NO_DELAY =
  'a rule without a delay then waits deps.sleep(0), one turn of the timers, before it applies: the same answer, and the same state changes, come out (the fault tests and the fuzzed world pass with the mutant)';
NOTES.push(
  {
    file: REQ_CTX,
    mutator: 'ConditionalExpression',
    original: "resolved.api !== 'realtimekit'",
    replacement: 'false',
    equivalent:
      'only the RealtimeKit paths have parameters named account_id and app_id (src/http/realtimekit/realtimekit.routes.ts): for any other request the lookup finds neither and answers the same { account_id: null, app_id: null }',
  },
  { file: REQ_CTX, mutator: 'ConditionalExpression', original: 'deps.feed.listenerCount > 0', replacement: 'true', equivalent: FEED_SHORTCUT },
  { file: REQ_CTX, mutator: 'StringLiteral', original: "'?'", replacement: '""', equivalent: QUERY_SHORTCUT },
  {
    file: REQ_CTX,
    mutator: 'EqualityOperator',
    original: 'deps.feed.listenerCount > 0',
    replacement: 'deps.feed.listenerCount >= 0',
    equivalent: FEED_SHORTCUT,
  },
  { file: REQ_CTX, mutator: 'ConditionalExpression', original: FEED_NEWS, replacement: 'true', killedBy: FEED_NO_READS },
  {
    file: REQ_CTX,
    mutator: 'LogicalOperator',
    original: FEED_NEWS,
    replacement: "journaled && resolved.api === 'control' && !READS.has(req.method)",
    killedBy: SSE_STREAMS,
  },
  { file: REQ_CTX, mutator: 'ConditionalExpression', original: FEED_CONTROL_WRITE, replacement: 'false', killedBy: SSE_STREAMS },
  {
    file: REQ_CTX,
    mutator: 'LogicalOperator',
    original: FEED_CONTROL_WRITE,
    replacement: "resolved.api === 'control' || !READS.has(req.method)",
    killedBy: FEED_NO_READS,
  },
  { file: REQ_CTX, mutator: 'ConditionalExpression', original: "resolved.api === 'control'", replacement: 'true', killedBy: FEED_NO_TELEMETRY },
  { file: REQ_CTX, mutator: 'EqualityOperator', original: "resolved.api === 'control'", replacement: "resolved.api !== 'control'", killedBy: SSE_STREAMS },
  { file: REQ_CTX, mutator: 'BooleanLiteral', original: '!READS.has(req.method)', replacement: 'READS.has(req.method)', killedBy: SSE_STREAMS },
  {
    file: REQ_CTX,
    mutator: 'BlockStatement',
    original: '{ deps.feed.request({ id: requestId, api: resolved.api, method: req.method, path, status, org_id: orgId, deliveries: scope.deliveries }); }',
    replacement: '{}',
    killedBy: SSE_STREAMS,
  },
  {
    file: REQ_CTX,
    mutator: 'ArithmeticOperator',
    original: 'realNow() - startedReal',
    replacement: 'realNow() + startedReal',
    killedBy: 'records method, path, query, status, org and body, newest first, with x-request-id on every response',
  },
  { file: REQ_CTX, mutator: 'StringLiteral', original: "`ip:${req.socket.remoteAddress ?? ''}`", replacement: '``', killedBy: RL_BY_ADDRESS },
  {
    file: REQ_CTX,
    mutator: 'LogicalOperator',
    original: "req.socket.remoteAddress ?? ''",
    replacement: "req.socket.remoteAddress && ''",
    killedBy: RL_BY_ADDRESS,
  },
  {
    file: REQ_CTX,
    mutator: 'StringLiteral',
    original: "''",
    replacement: '"Stryker was here!"',
    equivalent:
      'remoteAddress is missing only once the socket is gone (node:net); the fallback then only names the one key such clients share, and any text does that as well as the empty one',
  },
  {
    file: REQ_CTX,
    mutator: 'ConditionalExpression',
    original: 'resolved.route?.journal !== false',
    replacement: 'true',
    killedBy: 'the telemetry the SDK sends every few seconds stays out of the journal, which it would flood',
  },
  { file: REQ_CTX, mutator: 'ConditionalExpression', original: 'rule.delay_ms > 0', replacement: 'true', equivalent: NO_DELAY },
  { file: REQ_CTX, mutator: 'EqualityOperator', original: 'rule.delay_ms > 0', replacement: 'rule.delay_ms >= 0', equivalent: NO_DELAY },
  {
    file: REQ_CTX,
    mutator: 'ConditionalExpression',
    original: "api !== 'realtimekit'",
    replacement: 'true',
    killedBy: 'limits the RealtimeKit prefix as it limits /v2, answering in its own error shape',
  },
  {
    file: REQ_CTX,
    mutator: 'ConditionalExpression',
    original: '!deps.rateLimiter.enabled',
    replacement: 'false',
    equivalent:
      'take() of a disabled limiter answers 0 by itself (src/core/rate-limiter.ts: no request is ever held), so the request goes on either way; the two checks are each a shortcut past the other',
  },
);

// src/http/openapi.ts (run 69 and its line rerun).
const OPENAPI = 'src/http/openapi.ts';
const OPENAPI_V1_SHAPE =
  'the control API and the media routes answer errors in the v1 shape: controlErrorSchema is v1ErrorSchema, the same object (src/http/errors.ts), so either branch documents the same schema for every api';
const OPENAPI_KEY_ORDER =
  'the statuses become the keys of the responses object, and JavaScript lists keys that are whole numbers in ascending order whatever order they are set in, so the document is the same (its test pins the order: 200, 400, 401, 404, 429, default)';
NOTES.push(
  { file: OPENAPI, mutator: 'ConditionalExpression', original: "api === 'v1'", replacement: 'true', equivalent: OPENAPI_V1_SHAPE },
  { file: OPENAPI, mutator: 'ConditionalExpression', original: "api === 'v1'", replacement: 'false', equivalent: OPENAPI_V1_SHAPE },
  { file: OPENAPI, mutator: 'EqualityOperator', original: "api === 'v1'", replacement: "api !== 'v1'", equivalent: OPENAPI_V1_SHAPE },
  { file: OPENAPI, mutator: 'MethodExpression', original: '[...statuses].sort((a, b) => a - b)', replacement: '[...statuses]', equivalent: OPENAPI_KEY_ORDER },
  { file: OPENAPI, mutator: 'ArithmeticOperator', original: 'a - b', replacement: 'a + b', equivalent: OPENAPI_KEY_ORDER },
  {
    file: OPENAPI,
    mutator: 'StringLiteral',
    original: "'Error'",
    replacement: '""',
    equivalent:
      "never reached: an error status without the route's own text is one the builder added itself (400, 401, 403, 404, 413, 415, 429), and each of those has its text in ERROR_TEXT",
  },
  {
    file: OPENAPI,
    mutator: 'StringLiteral',
    original: "''",
    replacement: '"Stryker was here!"',
    equivalent:
      "at line 99, never reached: the builder adds only error statuses, so a status below 400 is one the route declares, with its description (ResponseSpec requires one). The same replacement of the '' at line 107 (a path ending in a character that is not a letter or digit) is killed by the operation id test",
  },
  {
    file: OPENAPI,
    mutator: 'Regex',
    original: '/[^A-Za-z0-9]+(.)?/g',
    replacement: '/[^A-Za-z0-9]+(.)/g',
    killedBy: 'gives /v2/widgets/ the operation id getV2Widgets: letters and digits only, however the path ends',
  },
);

// src/http/mount.ts and src/http/route-table.ts (run 43).
const MOUNT = 'src/http/mount.ts';
const RT = 'src/http/route-table.ts';
const TYPO_SHORTCUT =
  'a shortcut only: a length (or count of segments) that differs by FAR or more takes at least FAR edits (each character or segment added or dropped is one at least), and a distance of FAR is no hint either way';
const SEGMENTS_ALIKE =
  'every path and template starts with a slash, so the segment it leaves in or drops is the same empty one at the head of both lists: it aligns at no cost and changes neither count, so no distance changes';
const DECODE_SHORTCUT = 'decodeURIComponent returns a parameter without a % as it is: the check only skips the call';
NOTES.push(
  {
    file: MOUNT,
    mutator: 'LogicalOperator',
    original: 'fromBodyParserError(err) ?? err',
    replacement: 'fromBodyParserError(err) && err',
    equivalent:
      "the error handler maps body-parser's errors itself (src/http/errors.ts), so the raw error makes the same answer; the errors it does not map are body-parser's 500s for a stream already read or given an encoding, which nothing here does before the route reads the body",
  },
  {
    file: MOUNT,
    mutator: 'EqualityOperator',
    original: 'stack.length > 0',
    replacement: 'stack.length >= 0',
    equivalent: 'protoKeyPath is called only once hasProtoKey found a __proto__ key: the walk returns at it before the stack can run out',
  },
  {
    file: MOUNT,
    mutator: 'StringLiteral',
    original: "'?'",
    replacement: '""',
    equivalent: QUERY_SHORTCUT,
  },
  {
    file: RT,
    mutator: 'EqualityOperator',
    original: 'end < 0',
    replacement: 'end <= 0',
    equivalent:
      "the search for the slash that ends the first segment starts after the path's own leading slash, so it finds one at 1 or later, or none (-1): never at 0",
  },
  {
    file: RT,
    mutator: 'EqualityOperator',
    original: 'dot > 0',
    replacement: 'dot >= 0',
    equivalent: 'a Host that starts with a dot would look up the routes of an empty first label, and no route declares an empty host',
  },
  {
    file: RT,
    mutator: 'ConditionalExpression',
    original: "method !== 'HEAD'",
    replacement: 'true',
    equivalent: "no route is declared for HEAD (a route's method is get, post, put, patch or delete), so the table has no HEAD routes to find",
  },
  { file: RT, mutator: 'ConditionalExpression', original: 'Math.abs(a.length - b.length) >= FAR', replacement: 'false', equivalent: TYPO_SHORTCUT },
  {
    file: RT,
    mutator: 'EqualityOperator',
    original: 'Math.abs(a.length - b.length) >= FAR',
    replacement: 'Math.abs(a.length - b.length) > FAR',
    equivalent: TYPO_SHORTCUT,
  },
  { file: RT, mutator: 'ConditionalExpression', original: 'Math.abs(parts.length - segments.length) >= FAR', replacement: 'false', equivalent: TYPO_SHORTCUT },
  {
    file: RT,
    mutator: 'EqualityOperator',
    original: 'Math.abs(parts.length - segments.length) >= FAR',
    replacement: 'Math.abs(parts.length - segments.length) > FAR',
    equivalent: TYPO_SHORTCUT,
  },
  {
    file: RT,
    mutator: 'Regex',
    original: '/^(.*)\\{[^}]+\\}(.*)$/',
    replacement: '/(.*)\\{[^}]+\\}(.*)$/',
    equivalent: 'the greedy (.*) first matches from the start of the text anyway, so the first match is the anchored one',
  },
  {
    file: RT,
    mutator: 'Regex',
    original: '/^(.*)\\{[^}]+\\}(.*)$/',
    replacement: '/^(.*)\\{[^}]+\\}(.*)/',
    equivalent: 'the greedy (.*) last takes the rest of the text anyway, so the match ends at its end',
  },
  {
    file: RT,
    mutator: 'MethodExpression',
    original: "path .toLowerCase() .split('/') .filter((s, i) => i > 0 || s !== '')",
    replacement: "path.toLowerCase().split('/')",
    equivalent: SEGMENTS_ALIKE,
  },
  {
    file: RT,
    mutator: 'MethodExpression',
    original: 'path .toLowerCase()',
    replacement: 'path.toUpperCase()',
    equivalent: 'paths and templates go through the same case folding, and no rule of the distance depends on the case: upper case compares as lower case does',
  },
  { file: RT, mutator: 'ConditionalExpression', original: "i > 0 || s !== ''", replacement: 'true', equivalent: SEGMENTS_ALIKE },
  { file: RT, mutator: 'EqualityOperator', original: 'i > 0', replacement: 'i >= 0', equivalent: SEGMENTS_ALIKE },
  {
    file: RT,
    mutator: 'ConditionalExpression',
    original: "s !== ''",
    replacement: 'false',
    equivalent: 'the first segment of a path or template is always the empty one before its leading slash: dropping it by its place drops the same segment',
  },
  { file: RT, mutator: 'EqualityOperator', original: "s !== ''", replacement: "s === ''", equivalent: SEGMENTS_ALIKE },
  { file: RT, mutator: 'StringLiteral', original: "''", replacement: '"Stryker was here!"', equivalent: SEGMENTS_ALIKE },
  { file: RT, mutator: 'ConditionalExpression', original: "!raw.includes('%')", replacement: 'false', equivalent: DECODE_SHORTCUT },
  { file: RT, mutator: 'StringLiteral', original: "'%'", replacement: '""', equivalent: DECODE_SHORTCUT },
  { file: RT, mutator: 'BlockStatement', original: '{ params[resolved.names[i]!] = raw; continue; }', replacement: '{}', equivalent: DECODE_SHORTCUT },
);

// Survivors of run 42 (its results lost) that run 43 found killed: tests written for them, or tests
// that run did not include. The shortcut `* 2` of nearestTemplate's count check was a bug, fixed since.
NOTES.push(
  {
    file: MOUNT,
    mutator: 'BooleanLiteral',
    original: 'true',
    replacement: 'false',
    killedBy:
      '__proto__ as a key at any depth of any body POST /v2/meetings {"title":"t","recording_config":{"__proto__":{"polluted":"yes"}}} → 400 naming "recording_config.__proto__"',
  },
  {
    file: MOUNT,
    mutator: 'ConditionalExpression',
    original: "req.headers['transfer-encoding'] !== undefined",
    replacement: 'false',
    killedBy: 'bodies without a Content-Length a chunked body is read: the meeting gets its title',
  },
  {
    file: MOUNT,
    mutator: 'StringLiteral',
    original: "'transfer-encoding'",
    replacement: '""',
    killedBy: 'bodies without a Content-Length a chunked body is read: the meeting gets its title',
  },
  {
    file: MOUNT,
    mutator: 'ConditionalExpression',
    original: 'length !== undefined',
    replacement: 'true',
    killedBy: 'bodies without a Content-Length a POST with no body at all, neither length nor chunks, is a body of no fields',
  },
  {
    file: MOUNT,
    mutator: 'EqualityOperator',
    original: 'stack.length > 0',
    replacement: 'stack.length <= 0',
    killedBy: 'nesting depth answers 400 to 33 levels and stores nothing (it could not be answered back)',
  },
  {
    file: MOUNT,
    mutator: 'ArrayDeclaration',
    original: '[value]',
    replacement: '[]',
    killedBy:
      '__proto__ as a key at any depth of any body POST /v2/meetings {"title":"t","recording_config":{"__proto__":{"polluted":"yes"}}} → 400 naming "recording_config.__proto__"',
  },
  {
    file: MOUNT,
    mutator: 'ConditionalExpression',
    original: "Object.prototype.hasOwnProperty.call(v, '__proto__')",
    replacement: 'false',
    killedBy:
      '__proto__ as a key at any depth of any body POST /v2/meetings {"title":"t","recording_config":{"__proto__":{"polluted":"yes"}}} → 400 naming "recording_config.__proto__"',
  },
  {
    file: MOUNT,
    mutator: 'StringLiteral',
    original: "'__proto__'",
    replacement: '""',
    killedBy:
      '__proto__ as a key at any depth of any body POST /v2/meetings {"title":"t","recording_config":{"__proto__":{"polluted":"yes"}}} → 400 naming "recording_config.__proto__"',
  },
  {
    file: MOUNT,
    mutator: 'ArrayDeclaration',
    original: "[[value, '']]",
    replacement: '[]',
    killedBy:
      '__proto__ as a key at any depth of any body POST /v2/meetings {"title":"t","recording_config":{"__proto__":{"polluted":"yes"}}} → 400 naming "recording_config.__proto__"',
  },
  {
    file: MOUNT,
    mutator: 'StringLiteral',
    original: "''",
    replacement: '"Stryker was here!"',
    killedBy:
      '__proto__ as a key at any depth of any body POST /v2/meetings {"title":"t","recording_config":{"__proto__":{"polluted":"yes"}}} → 400 naming "recording_config.__proto__"',
  },
  {
    file: MOUNT,
    mutator: 'StringLiteral',
    original: '`${path}.__proto__`',
    replacement: '``',
    killedBy:
      '__proto__ as a key at any depth of any body POST /v2/meetings {"title":"t","recording_config":{"__proto__":{"polluted":"yes"}}} → 400 naming "recording_config.__proto__"',
  },
  {
    file: MOUNT,
    mutator: 'ArrowFunction',
    original: '(c, i) => [c, `${path}[${i}]`] as [unknown, string]',
    replacement: '() => undefined',
    killedBy:
      '__proto__ as a key at any depth of any body POST /v2/meetings {"recording_config":{"a":[1,{"b":{"__proto__":null}}]}} → 400 naming "recording_config.a[1].b.__proto__"',
  },
  {
    file: MOUNT,
    mutator: 'ArrowFunction',
    original: '(k) => [(v as Record<string, unknown>)[k], path ? `${path}.${k}` : k] as [unknown, string]',
    replacement: '() => undefined',
    killedBy:
      '__proto__ as a key at any depth of any body POST /v2/meetings {"title":"t","recording_config":{"__proto__":{"polluted":"yes"}}} → 400 naming "recording_config.__proto__"',
  },
  {
    file: MOUNT,
    mutator: 'ArithmeticOperator',
    original: 'children.length - 1',
    replacement: 'children.length + 1',
    killedBy:
      '__proto__ as a key at any depth of any body POST /v2/meetings {"recording_config":{"x":{"y":1},"z":{"__proto__":1},"w":{"__proto__":2}}} → 400 naming "recording_config.z.__proto__"',
  },
  {
    file: MOUNT,
    mutator: 'ConditionalExpression',
    original: 'i >= 0',
    replacement: 'false',
    killedBy:
      '__proto__ as a key at any depth of any body POST /v2/meetings {"title":"t","recording_config":{"__proto__":{"polluted":"yes"}}} → 400 naming "recording_config.__proto__"',
  },
  {
    file: MOUNT,
    mutator: 'EqualityOperator',
    original: 'i >= 0',
    replacement: 'i > 0',
    killedBy:
      '__proto__ as a key at any depth of any body POST /v2/meetings {"recording_config":{"a":[1,{"b":{"__proto__":null}}]}} → 400 naming "recording_config.a[1].b.__proto__"',
  },
  {
    file: MOUNT,
    mutator: 'EqualityOperator',
    original: 'i >= 0',
    replacement: 'i < 0',
    killedBy:
      '__proto__ as a key at any depth of any body POST /v2/meetings {"title":"t","recording_config":{"__proto__":{"polluted":"yes"}}} → 400 naming "recording_config.__proto__"',
  },
  { file: MOUNT, mutator: 'UpdateOperator', original: 'i--', replacement: 'i++', killedBy: '__proto__ as a key at any depth of any body' },
  {
    file: MOUNT,
    mutator: 'ConditionalExpression',
    original: 'hasProtoKey(req.body)',
    replacement: 'false',
    killedBy:
      '__proto__ as a key at any depth of any body POST /v2/meetings {"title":"t","recording_config":{"__proto__":{"polluted":"yes"}}} → 400 naming "recording_config.__proto__"',
  },
  {
    file: MOUNT,
    mutator: 'StringLiteral',
    original: '`"${protoKeyPath(req.body)!}" is not allowed (reserved name)`',
    replacement: '``',
    killedBy:
      '__proto__ as a key at any depth of any body POST /v2/meetings {"title":"t","recording_config":{"__proto__":{"polluted":"yes"}}} → 400 naming "recording_config.__proto__"',
  },
  {
    file: RT,
    mutator: 'ArrayDeclaration',
    original: '[]',
    replacement: '["Stryker was here"]',
    killedBy: 'Basic credentials on every v2 route are read after any run of spaces that follows the scheme, as HTTP allows',
  },
  {
    file: RT,
    mutator: 'ConditionalExpression',
    original: "parts.filter((p) => p.startsWith('{')).length > 1",
    replacement: 'false',
    killedBy: 'RouteTable checks the routes it is given refuses two parameters in one segment, which it could not match as Express does',
  },
  {
    file: RT,
    mutator: 'ArrowFunction',
    original: "(p) => p.startsWith('{')",
    replacement: '() => undefined',
    killedBy: 'RouteTable checks the routes it is given refuses two parameters in one segment, which it could not match as Express does',
  },
  {
    file: RT,
    mutator: 'MethodExpression',
    original: "p.startsWith('{')",
    replacement: "p.endsWith('{')",
    killedBy: 'RouteTable checks the routes it is given refuses two parameters in one segment, which it could not match as Express does',
  },
  {
    file: RT,
    mutator: 'StringLiteral',
    original: "'{'",
    replacement: '""',
    killedBy: 'RouteTable.resolve GET /v2/meetings/0b0e5d4e-4a51-4c2e-9d59-2a4f5a3c1d11 → GET /v2/meetings/{id} (v2)',
  },
  {
    file: RT,
    mutator: 'StringLiteral',
    original: '`${route.path}: one parameter per segment`',
    replacement: '``',
    killedBy: 'RouteTable checks the routes it is given refuses two parameters in one segment, which it could not match as Express does',
  },
  { file: RT, mutator: 'StringLiteral', original: "'i'", replacement: '""', killedBy: 'RouteTable.resolve POST /V2/Meetings → POST /v2/meetings (v2)' },
  { file: RT, mutator: 'ConditionalExpression', original: 'end < 0', replacement: 'false', killedBy: 'RouteTable.resolve GET /v1: no route, API v1' },
  { file: RT, mutator: 'MethodExpression', original: 'path.slice(1)', replacement: 'path', killedBy: 'RouteTable.resolve GET /v1: no route, API v1' },
  {
    file: RT,
    mutator: 'ConditionalExpression',
    original: "!route.path.includes('{')",
    replacement: 'false',
    killedBy: 'RouteTable.resolve GET /.well-known/other.json: no route, API v2',
  },
  {
    file: RT,
    mutator: 'ConditionalExpression',
    original: 'api !== undefined && api !== route.api',
    replacement: 'false',
    killedBy: 'RouteTable checks the routes it is given refuses a first segment holding the routes of two APIs: an unrouted path under it would have no API',
  },
  {
    file: RT,
    mutator: 'StringLiteral',
    original: '`/${mount} holds routes of two APIs (${api}, ${route.api}): a path no route serves there would have no API`',
    replacement: '``',
    killedBy: 'RouteTable checks the routes it is given refuses a first segment holding the routes of two APIs: an unrouted path under it would have no API',
  },
  {
    file: RT,
    mutator: 'ConditionalExpression',
    original: "method === 'HEAD'",
    replacement: 'false',
    killedBy: 'RouteTable.resolve HEAD /v2/meetings/0b0e5d4e-4a51-4c2e-9d59-2a4f5a3c1d11 → GET /v2/meetings/{id} (v2)',
  },
  {
    file: RT,
    mutator: 'StringLiteral',
    original: "'HEAD'",
    replacement: '""',
    killedBy: 'RouteTable.resolve HEAD /v2/meetings/0b0e5d4e-4a51-4c2e-9d59-2a4f5a3c1d11 → GET /v2/meetings/{id} (v2)',
  },
  {
    file: RT,
    mutator: 'StringLiteral',
    original: "'GET'",
    replacement: '""',
    killedBy: 'RouteTable.resolve HEAD /v2/meetings/0b0e5d4e-4a51-4c2e-9d59-2a4f5a3c1d11 → GET /v2/meetings/{id} (v2)',
  },
  {
    file: RT,
    mutator: 'ConditionalExpression',
    original: 'dot > 0',
    replacement: 'true',
    killedBy: 'RouteTable.resolve on the web SDK hosts (by the first label of Host) GET /v2/internals/participant-details on apis: no route',
  },
  {
    file: RT,
    mutator: 'ConditionalExpression',
    original: 'c.route.api === api',
    replacement: 'true',
    killedBy: "RouteTable.nearest (the typo hint of a 404) looks only among the routes of the path's own API",
  },
  {
    file: RT,
    mutator: 'ConditionalExpression',
    original: 'segment.length <= prefix.length + suffix.length',
    replacement: 'false',
    killedBy: 'nearestTemplate /v2//meetings// → /v2/meetings',
  },
  {
    file: RT,
    mutator: 'EqualityOperator',
    original: 'segment.length <= prefix.length + suffix.length',
    replacement: 'segment.length < prefix.length + suffix.length',
    killedBy: 'nearestTemplate /v2//meetings// → /v2/meetings',
  },
  {
    file: RT,
    mutator: 'ArithmeticOperator',
    original: 'prefix.length + suffix.length',
    replacement: 'prefix.length - suffix.length',
    killedBy: 'nearestTemplate /media/recordings/r/.mp4 → /media/recordings/{recording_id}/{file}.mp4',
  },
  {
    file: RT,
    mutator: 'ArithmeticOperator',
    original: 'editDistance(segment, prefix + suffix) + 1',
    replacement: 'editDistance(segment, prefix + suffix) - 1',
    killedBy: 'nearestTemplate /media/recordings/r/mp4 → /media/recordings/{recording_id}/{file}.mp4',
  },
  {
    file: RT,
    mutator: 'MethodExpression',
    original: "Math.min(FAR, (segment.startsWith('{') ? 1 : segment.length) + 1)",
    replacement: "Math.max(FAR, (segment.startsWith('{') ? 1 : segment.length) + 1)",
    killedBy: 'nearestTemplate /meetings → /v2/meetings',
  },
  {
    file: RT,
    mutator: 'MethodExpression',
    original: "segment.startsWith('{')",
    replacement: "segment.endsWith('{')",
    killedBy: 'nearestTemplate /v2/meetings/participants → /v2/meetings/{meeting_id}/participants',
  },
  {
    file: RT,
    mutator: 'MethodExpression',
    original: 'Math.min(FAR, prev[j - 1]! + segmentCost(template[j - 1]!))',
    replacement: 'Math.max(FAR, prev[j - 1]! + segmentCost(template[j - 1]!))',
    killedBy: 'nearestTemplate /meetings → /v2/meetings',
  },
  {
    file: RT,
    mutator: 'MethodExpression',
    original: 'Math.min(FAR, prev[0]! + segmentCost(path[i - 1]!))',
    replacement: 'Math.max(FAR, prev[0]! + segmentCost(path[i - 1]!))',
    killedBy: 'nearestTemplate /x/v2/meetings → /v2/meetings',
  },
  {
    file: RT,
    mutator: 'LogicalOperator',
    original: "i > 0 || s !== ''",
    replacement: "i > 0 && s !== ''",
    killedBy: 'nearestTemplate /v2//meetings → /v2/meetings',
  },
  { file: RT, mutator: 'ConditionalExpression', original: 'i > 0', replacement: 'false', killedBy: 'nearestTemplate /v2//meetings → /v2/meetings' },
  { file: RT, mutator: 'EqualityOperator', original: 'i > 0', replacement: 'i <= 0', killedBy: 'nearestTemplate /v2//meetings → /v2/meetings' },
  { file: RT, mutator: 'Regex', original: '/\\/$/', replacement: '/\\//', killedBy: 'nearestTemplate /v2/mxxxings/ → /v2/meetings' },
  {
    file: RT,
    mutator: 'ConditionalExpression',
    original: 'distance === 0',
    replacement: 'false',
    killedBy: 'nearestTemplate /v2/meetings/participants → /v2/meetings/{meeting_id}/participants',
  },
);

/** Printed at the top of bench/MUTATION.md: where the runs stand, in the maintainer's words. */
export const STATUS = [
  'Where this stands: runs 1 to 42 (marked †) kept their results only on the machine that made them, and those are',
  'lost. The report they gave is kept as it was written in `bench/mutation/report-runs-1-to-42.md`: every folder met',
  'the goal there (`src/core` 92.9 %, `src/domain` 95.0 %, `src/http` 92.3 % without `openapi.ts`, `src/webhooks`',
  "96.2 %), each survivor killed by a test written for it, noted as equivalent, or noted out of Stryker's reach, but",
  'for the 79 of `src/http/mount.ts` and `src/http/route-table.ts`. Since run 43 the results are kept in',
  '`bench/mutation/` and this report is written from them; a file counts here once a run measures it again.',
  '',
  "- `src/core`, all 15 files (runs 44, 45, 47, 48): 11 survivors were new, in the key derivation's last steps, which",
  '  the tests reached only through keys derived once per process; tests that derive afresh kill all but one, which is',
  "  equivalent, as is the clock's cache of its last ISO text. The other survivors are the equivalents noted before.",
  '- `src/webhooks`, all 6 files (run 46): its 9 survivors are the equivalents noted before.',
  "- `src/domain`, all 30 files (runs 49 to 59): the audio file's byte count, which nothing reads, is a new equivalent;",
  "  the preset schema's 10 parts are out of Stryker's reach, and `mutation-by-hand.mjs` shows each killed by its test",
  '  when applied by hand. Every other survivor is an equivalent noted before.',
  '- `src/http`, all 55 files (run 43, runs 60 to 74): `mount.ts` and `route-table.ts` were measured with tests',
  '  written for those 79: 56 are killed (the last section names a test for each), 20 are equivalent, and 3 went with',
  '  the code they were in, a bug fixed before the run (a path two empty segments from a route got no typo hint),',
  '  whose fix has 2 equivalent survivors of its own. In the other 53 files two survivors were new, each now killed',
  '  by a test written for it: the description of a RealtimeKit twin whose v2 route has none (run 67 confirms the',
  '  kill), and the last character of a path that an operation id kept, pinned by a unit test of the served OpenAPI',
  "  document (run 71). The new equivalents are the RealtimeKit twins' memo, seven in `openapi.ts` (the control and",
  '  v1 error shapes are one schema, whole-number keys order themselves, two fallbacks no route reaches) and the',
  '  query-string shortcut of `request-context.ts`, the one noted for `mount.ts`. Every other survivor is an',
  '  equivalent noted before.',
  '',
  'Every run used `--testFiles` (the folder tests and the scenarios that drive it), so each score is a lower bound;',
  'from run 57 on, `npm run mutate` adds to it the test files that hold the tests the kill notes name. At the rates',
  'seen on this 2-core machine (one test runner, 2 to 12 mutants a minute), a folder takes one to three hours; a',
  'rerun after new tests retests every mutant those tests reach, so confirm kills by their lines.',
];
