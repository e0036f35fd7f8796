import { describe, expect, it } from 'vitest';
import {
  DEFAULT_FIXTURES,
  DEFAULT_MANUAL_START,
  OPTIONS,
  defaultConfig,
  helpText,
  manualClockStart,
  parseConfig,
  storageEndpointsProblem,
  tlsUrl,
  withListenPort,
  type Config,
} from '../../src/config.js';

function ok(argv: string[], env: Record<string, string> = {}): Config {
  const r = parseConfig(argv, env);
  if (!r.ok || !('config' in r)) throw new Error(`expected a config, got ${JSON.stringify(r)}`);
  return r.config;
}

function reason(argv: string[], env: Record<string, string> = {}): string {
  const r = parseConfig(argv, env);
  if (r.ok) throw new Error(`expected a failure, got ${JSON.stringify(r)}`);
  return r.reason;
}

describe('defaults', () => {
  it('without flags or env', () => {
    const c = ok([]);
    expect(c).toMatchObject({
      port: 4700,
      host: '127.0.0.1',
      fixtures: DEFAULT_FIXTURES,
      clock: 'real',
      startTime: undefined,
      timeScale: 1,
      seed: undefined,
      publicUrl: 'http://127.0.0.1:4700',
      logLevel: 'info',
      // Media on the listener's address, one port the system picks, announced as bound.
      mediaPort: 0,
      mediaAnnounce: undefined,
    });
    expect(c).toEqual(defaultConfig());
    expect(DEFAULT_FIXTURES.endsWith('fixtures/default.json')).toBe(true);
  });

  it('a manual clock starts at --start-time; else, with --seed, at 2026-01-01T00:00:00Z; else at the real time to the whole second', () => {
    expect(ok(['--clock', 'manual', '--start-time', '2030-05-01T12:00:00Z']).startTime).toBe(Date.parse('2030-05-01T12:00:00Z'));
    expect(manualClockStart(ok(['--clock', 'manual', '--start-time', '2030-05-01T12:00:00Z']))).toBe(Date.parse('2030-05-01T12:00:00Z'));
    expect(manualClockStart(ok(['--clock', 'manual', '--start-time', '2030-05-01T12:00:00Z', '--seed', 's']))).toBe(Date.parse('2030-05-01T12:00:00Z'));
    expect(manualClockStart(ok(['--clock', 'manual', '--seed', 's']))).toBe(Date.parse('2026-01-01T00:00:00.000Z'));
    expect(DEFAULT_MANUAL_START).toBe(Date.parse('2026-01-01T00:00:00.000Z'));
    const before = Date.now();
    const start = manualClockStart(ok(['--clock', 'manual']));
    const after = Date.now();
    expect(start % 1000).toBe(0);
    expect(start).toBeGreaterThan(before - 1000);
    expect(start).toBeLessThanOrEqual(after);
  });

  it('--start-time takes a zone offset', () => {
    expect(ok(['--start-time', '2026-01-01T01:00:00+01:00']).startTime).toBe(Date.parse('2026-01-01T00:00:00Z'));
  });

  it('the config is frozen', () => {
    expect(Object.isFrozen(ok([]))).toBe(true);
  });

  it.each([
    [['--host', '0.0.0.0', '--port', '8080'], 'http://localhost:8080'],
    [['--host', '::', '--port', '8080'], 'http://localhost:8080'],
    [['--host', '::1', '--port', '8080'], 'http://[::1]:8080'],
    [['--host', 'emulator.local'], 'http://emulator.local:4700'],
    [['--public-url', 'https://meet.example.com/base///'], 'https://meet.example.com/base'],
  ])('%j gives the public URL %s (a valid URL)', (argv, url) => {
    const c = ok(argv);
    expect(c.publicUrl).toBe(url);
    expect(() => new URL(c.publicUrl)).not.toThrow();
  });
});

describe('the port picked at listen time (--port 0)', () => {
  it('a derived public URL follows it', () => {
    const c = withListenPort(ok(['--port', '0']), 53_211);
    expect(c).toMatchObject({ port: 53_211, publicUrl: 'http://127.0.0.1:53211', publicUrlGiven: false });
    expect(Object.isFrozen(c)).toBe(true);
  });

  it.each([
    ['the flag', ['--port', '0', '--public-url', 'https://meet.example.com'], {}],
    ['the env var', ['--port', '0'], { EMULATOR_PUBLIC_URL: 'https://meet.example.com' }],
  ])('a public URL given by %s stays', (_source, argv, env) => {
    const c = withListenPort(ok(argv, env), 53_211);
    expect(c).toMatchObject({ port: 53_211, publicUrl: 'https://meet.example.com', publicUrlGiven: true });
  });

  it('an empty EMULATOR_PUBLIC_URL is no public URL', () => {
    expect(withListenPort(ok(['--port', '0'], { EMULATOR_PUBLIC_URL: '' }), 53_211).publicUrl).toBe('http://127.0.0.1:53211');
  });

  it('a config spread into new overrides keeps whether its public URL was given', () => {
    expect(defaultConfig({ ...defaultConfig(), clock: 'manual' }).publicUrlGiven).toBe(false);
    expect(defaultConfig({ ...defaultConfig({ publicUrl: 'http://e.test' }), clock: 'manual' }).publicUrlGiven).toBe(true);
  });
});

// Every option of the options table (docs/running.md, "Configuration"), with a good raw value and
// what it becomes.
const GOOD: Array<[keyof Config, string, string, unknown]> = [
  ['port', '--port', '5000', 5000],
  ['host', '--host', '0.0.0.0', '0.0.0.0'],
  ['fixtures', '--fixtures', '/tmp/f.json', '/tmp/f.json'],
  ['clock', '--clock', 'manual', 'manual'],
  ['startTime', '--start-time', '2027-03-04T05:06:07.890Z', Date.parse('2027-03-04T05:06:07.890Z')],
  ['timeScale', '--time-scale', '60', 60],
  ['seed', '--seed', 'abc', 'abc'],
  ['publicUrl', '--public-url', 'http://emulator.test:1234', 'http://emulator.test:1234'],
  ['logLevel', '--log-level', 'debug', 'debug'],
  ['mediaPort', '--media-port', '4710', 4710],
  ['mediaPort', '--media-port', '40000-40019', { from: 40000, to: 40019 }],
  ['mediaAnnounce', '--media-announce', '127.0.0.1', '127.0.0.1'],
  ['mediaAnnounce', '--media-announce', 'host.docker.internal', 'host.docker.internal'],
  ['mediaAnnounce', '--media-announce', '[::1]', '::1'],
  ['mediaFailedGraceMs', '--media-failed-grace-ms', '1500', 1500],
  ['mediaPlaneIdleMs', '--media-plane-idle-ms', '0', 0],
  ['mediaPlaneIdleMs', '--media-plane-idle-ms', '3600000', 3_600_000],
];
const envOf = (flag: string) => OPTIONS.find((o) => o.flag === flag)!.env;

describe('sources', () => {
  it.each(GOOD)('%s: the env var beats the default', (key, flag, raw, value) => {
    expect(ok([], { [envOf(flag)]: raw })[key]).toEqual(value);
  });

  it.each(GOOD)('%s: the flag beats the env var', (key, flag, raw, value) => {
    const env = {
      [envOf(flag)]:
        key === 'clock'
          ? 'real'
          : key === 'logLevel'
            ? 'warn'
            : key === 'port'
              ? '6000'
              : key === 'timeScale'
                ? '2'
                : key === 'startTime'
                  ? '2020-01-01T00:00:00Z'
                  : key === 'publicUrl'
                    ? 'http://other.test'
                    : 'from-env',
    };
    expect(ok([flag, raw], env)[key]).toEqual(value);
  });

  it.each(GOOD)('%s: --flag=value works as --flag value', (key, flag, raw, value) => {
    expect(ok([`${flag}=${raw}`])[key]).toEqual(value);
  });

  it('the documented env var names', () => {
    expect(Object.fromEntries(GOOD.map(([key, flag]) => [key, envOf(flag)]))).toEqual({
      port: 'PORT',
      host: 'HOST',
      fixtures: 'EMULATOR_FIXTURES',
      clock: 'EMULATOR_CLOCK',
      startTime: 'EMULATOR_START_TIME',
      timeScale: 'EMULATOR_TIME_SCALE',
      seed: 'EMULATOR_SEED',
      publicUrl: 'EMULATOR_PUBLIC_URL',
      logLevel: 'EMULATOR_LOG_LEVEL',
      mediaPort: 'EMULATOR_MEDIA_PORT',
      mediaAnnounce: 'EMULATOR_MEDIA_ANNOUNCE',
      mediaFailedGraceMs: 'EMULATOR_MEDIA_FAILED_GRACE_MS',
      mediaPlaneIdleMs: 'EMULATOR_MEDIA_PLANE_IDLE_MS',
    });
  });

  it('an empty env var counts as unset', () => {
    expect(ok([], { PORT: '', EMULATOR_CLOCK: '' })).toMatchObject({ port: 4700, clock: 'real' });
  });

  it('the last of a repeated flag wins', () => {
    expect(ok(['--port', '1', '--port', '2']).port).toBe(2);
  });
});

describe('bad values stop with a one-line reason', () => {
  const BAD: Array<[string, string, string]> = [
    ['--port', 'abc', '--port must be a whole number, got "abc"'],
    ['--port', '-1', '--port must be a whole number, got "-1"'],
    ['--port', '80.5', '--port must be a whole number, got "80.5"'],
    ['--port', '65536', '--port must be between 0 and 65535, got 65536'],
    ['--media-plane-idle-ms', '3600001', '--media-plane-idle-ms must be between 0 and 3600000, got 3600001'],
    ['--media-plane-idle-ms', '1.5', '--media-plane-idle-ms must be a whole number, got "1.5"'],
    ['--port', '', '--port must be a whole number, got ""'],
    ['--port', '1\n2', '--port must be a whole number, got "1\\n2"'],
    ['--host', '', '--host must not be empty'],
    ['--fixtures', '', '--fixtures must not be empty'],
    ['--clock', 'fast', '--clock must be one of real, manual, got "fast"'],
    ['--clock', 'MANUAL', '--clock must be one of real, manual, got "MANUAL"'],
    ['--start-time', 'yesterday', '--start-time must be an ISO 8601 time with a zone, such as 2026-01-01T00:00:00Z, got "yesterday"'],
    ['--start-time', '2026-01-01', '--start-time must be an ISO 8601 time with a zone, such as 2026-01-01T00:00:00Z, got "2026-01-01"'],
    ['--start-time', '2026-01-01T00:00:00', '--start-time must be an ISO 8601 time with a zone, such as 2026-01-01T00:00:00Z, got "2026-01-01T00:00:00"'],
    ['--start-time', '2026-02-30T00:00:00Z', '--start-time must be an ISO 8601 time with a zone, such as 2026-01-01T00:00:00Z, got "2026-02-30T00:00:00Z"'],
    ['--start-time', '2026-13-01T00:00:00Z', '--start-time must be an ISO 8601 time with a zone, such as 2026-01-01T00:00:00Z, got "2026-13-01T00:00:00Z"'],
    // the rule of PUT /_emulator/clock: seconds are required, T and Z are upper case
    ['--start-time', '2026-01-01T00:00Z', '--start-time must be an ISO 8601 time with a zone, such as 2026-01-01T00:00:00Z, got "2026-01-01T00:00Z"'],
    ['--start-time', '2026-01-01t00:00:00z', '--start-time must be an ISO 8601 time with a zone, such as 2026-01-01T00:00:00Z, got "2026-01-01t00:00:00z"'],
    ['--start-time', '2026-01-01T25:00:00Z', '--start-time must be an ISO 8601 time with a zone, such as 2026-01-01T00:00:00Z, got "2026-01-01T25:00:00Z"'],
    ['--time-scale', '0', '--time-scale must be a positive number, got "0"'],
    ['--time-scale', '-2', '--time-scale must be a positive number, got "-2"'],
    ['--time-scale', 'fast', '--time-scale must be a positive number, got "fast"'],
    ['--time-scale', 'Infinity', '--time-scale must be a positive number, got "Infinity"'],
    ['--seed', '', '--seed must not be empty'],
    ['--public-url', 'ftp://files.example.com', '--public-url must be an http(s) URL, got "ftp://files.example.com"'],
    ['--public-url', 'not a url', '--public-url must be an http(s) URL, got "not a url"'],
    ['--log-level', 'verbose', `--log-level must be one of fatal, error, warn, info, debug, trace, silent, got "verbose"`],
    ['--media-port', 'udp', '--media-port must be a whole number, got "udp"'],
    ['--media-port', '65536', '--media-port must be between 0 and 65535, got 65536'],
    ['--media-port', '40019-40000', '--media-port must be a port, or a range from-to of ports between 1 and 65535 with from <= to, got "40019-40000"'],
    ['--media-port', '0-10', '--media-port must be a port, or a range from-to of ports between 1 and 65535 with from <= to, got "0-10"'],
    ['--media-port', '65535-65536', '--media-port must be a port, or a range from-to of ports between 1 and 65535 with from <= to, got "65535-65536"'],
    ['--media-announce', '', '--media-announce must be an IP address or a host name, got ""'],
    ['--media-announce', 'http://127.0.0.1', '--media-announce must be an IP address or a host name, got "http://127.0.0.1"'],
    ['--media-announce', '127.0.0.1:4710', '--media-announce must be an IP address or a host name, got "127.0.0.1:4710"'],
  ];

  it.each(BAD)('%s %j', (flag, raw, expected) => {
    const r = reason([`${flag}=${raw}`]);
    expect(r).toBe(expected);
    expect(r).not.toMatch(/[\r\n]/);
  });

  it.each(BAD.filter(([, raw]) => raw !== ''))('the env var of %s with %j names the env var', (flag, raw, expected) => {
    const env = envOf(flag);
    const r = reason([], { [env]: raw });
    expect(r).toBe(expected.replace(flag, env));
    expect(r).not.toMatch(/[\r\n]/);
  });

  it('a bad env var does not matter when a good flag overrides it', () => {
    expect(ok(['--port', '5000'], { PORT: 'abc' }).port).toBe(5000);
  });

  it.each(OPTIONS.map((o) => o.flag))('%s without a value', (flag) => {
    expect(reason([flag])).toBe(`${flag} needs a value; see --help`);
  });

  it.each([
    [['--prot', '1'], 'unknown option --prot (did you mean --port?); see --help'],
    [['--verbose'], 'unknown option --verbose; see --help'],
    [['4700'], 'unknown option 4700; see --help'],
    [['--po\nrt'], 'unknown option --po\\nrt (did you mean --port?); see --help'],
  ])('unknown option %j', (argv, expected) => {
    const r = reason(argv);
    expect(r).toBe(expected);
    expect(r).not.toMatch(/[\r\n]/);
  });
});

describe('--help', () => {
  it.each([['--help'], ['-h'], ['--port', '5000', '--help']])('%j asks for help', (...argv) => {
    expect(parseConfig(argv, {})).toEqual({ ok: true, help: true });
  });

  it.each(OPTIONS.map((o) => [o.flag, o.env, o.defaultText] as const))('lists %s with its env var %s and default %s', (flag, env, defaultText) => {
    const text = helpText();
    const at = text.indexOf(`${flag} <value>`);
    expect(at).toBeGreaterThan(-1);
    const entry = text.slice(at).split('\n').slice(0, 2).join('\n');
    expect(entry).toContain(`env ${env}`);
    expect(entry).toContain(`default ${defaultText}`);
  });

  it('lists --help and every documented option', () => {
    const text = helpText();
    expect(text).toContain('--help');
    for (const [, flag] of GOOD) expect(text).toContain(flag);
  });
});

describe('the TLS listener (--tls-port, --tls-cert, --tls-key)', () => {
  it('listens on 4443 by default; 0 turns it off; the env var sets it; the flag wins', () => {
    expect(ok([]).tlsPort).toBe(4443);
    expect(ok(['--tls-port', '0']).tlsPort).toBeNull();
    expect(ok([], { EMULATOR_TLS_PORT: '8443' }).tlsPort).toBe(8443);
    expect(ok(['--tls-port', '9443'], { EMULATOR_TLS_PORT: '8443' }).tlsPort).toBe(9443);
    expect(ok(['--tls-port=0'], { EMULATOR_TLS_PORT: '8443' }).tlsPort).toBeNull();
  });

  it.each([
    [['--tls-port', 'https'], '--tls-port must be a whole number, got "https"'],
    [['--tls-port', '70000'], '--tls-port must be between 0 and 65535, got 70000'],
    [['--tls-cert', ''], '--tls-cert must not be empty'],
    [['--tls-key'], '--tls-key needs a value; see --help'],
  ])('%j: %s', (argv, message) => {
    expect(reason(argv)).toBe(message);
  });

  it('takes the certificate and key files as given (they are read at start)', () => {
    expect(ok(['--tls-cert', 'c.pem', '--tls-key', 'k.pem'])).toMatchObject({ tlsCert: 'c.pem', tlsKey: 'k.pem' });
    expect(ok([], { EMULATOR_TLS_CERT: '/certs/c.pem', EMULATOR_TLS_KEY: '/certs/k.pem' })).toMatchObject({ tlsCert: '/certs/c.pem', tlsKey: '/certs/k.pem' });
    expect(ok([])).toMatchObject({ tlsCert: undefined, tlsKey: undefined });
  });

  it('its URL names localhost for a loopback or wildcard host (the SDK calls api.<base>), else the host', () => {
    expect(tlsUrl(ok([]))).toBe('https://localhost:4443');
    expect(tlsUrl(ok(['--host', '0.0.0.0', '--tls-port', '8443']))).toBe('https://localhost:8443');
    expect(tlsUrl(ok(['--host', '::1']))).toBe('https://localhost:4443');
    expect(tlsUrl(ok(['--host', 'emulator.local']))).toBe('https://emulator.local:4443');
    expect(tlsUrl(ok(['--tls-port', '0']))).toBeUndefined();
  });

  it('a TLS port picked at listen time is the one the config as run holds', () => {
    const c = withListenPort(defaultConfig({ port: 0, tlsPort: 0 }), 53_211, 53_212);
    expect(c).toMatchObject({ port: 53_211, tlsPort: 53_212, publicUrl: 'http://127.0.0.1:53211' });
  });
});

describe('--storage-endpoint', () => {
  it('is repeatable, and its environment variable takes a comma-separated list', () => {
    const c = ok([
      '--storage-endpoint',
      'aws=http://127.0.0.1:9000/',
      '--storage-endpoint=azure=http://127.0.0.1:10000/devstoreaccount1',
      '--storage-endpoint',
      'sftp=*',
    ]);
    expect(c.storageEndpoints).toEqual({ aws: 'http://127.0.0.1:9000', azure: 'http://127.0.0.1:10000/devstoreaccount1', sftpHosts: ['*'] });
    const fromEnv = ok([], { EMULATOR_STORAGE_ENDPOINTS: 'digitalocean=http://minio:9000, sftp=sftp, sftp=127.0.0.1' });
    expect(fromEnv.storageEndpoints).toEqual({ digitalocean: 'http://minio:9000', sftpHosts: ['sftp', '127.0.0.1'] });
    // Flags win over the environment: they replace its list rather than add to it.
    expect(ok(['--storage-endpoint', 'aws=http://a:1'], { EMULATOR_STORAGE_ENDPOINTS: 'azure=http://b:2' }).storageEndpoints).toEqual({
      aws: 'http://a:1',
      sftpHosts: [],
    });
    expect(ok([]).storageEndpoints).toEqual({ sftpHosts: [] });
    expect(ok([]).storageTimeoutMs).toBe(30_000);
  });

  it.each([
    [
      ['--storage-endpoint', 'gcs=http://x:1'],
      '--storage-endpoint gcs: uploads to Google Cloud Storage are not emulated (the config is kept, nothing is sent)',
    ],
    [['--storage-endpoint', 's3=http://x:1'], '--storage-endpoint must be TYPE=URL with TYPE one of aws, digitalocean, azure, sftp, got "s3=http://x:1"'],
    [['--storage-endpoint', 'aws=ftp://x'], '--storage-endpoint must be an http(s) URL, got "ftp://x"'],
    [['--storage-endpoint', 'aws=not a url'], '--storage-endpoint must be an http(s) URL, got "not a url"'],
    [['--storage-endpoint', 'aws='], '--storage-endpoint aws= needs a value (an http(s) URL)'],
    [['--storage-endpoint', 'aws=http://a:1', '--storage-endpoint', 'aws=http://b:2'], '--storage-endpoint names aws twice'],
    [['--storage-endpoint', 'sftp=user@host'], '--storage-endpoint sftp= takes a host name or address (or *), got "user@host"'],
    [['--storage-timeout-ms', '0'], '--storage-timeout-ms must be between 1 and 3600000, got 0'],
  ])('%j is refused: %s', (argv, why) => {
    expect(reason(argv)).toBe(why);
  });

  const shown = 'it would be shown on the start line, in health and in the request journal; the storage_config signs every upload with its own credentials';
  it.each([
    ['aws=http://AKIAZQ:wJalrZQsecret@127.0.0.1:9000', 'aws= must not carry credentials (user:password@ in the URL)', ['AKIAZQ', 'wJalrZQsecret']],
    ['digitalocean=https://DOZQKEY@minio.test', 'digitalocean= must not carry credentials (user:password@ in the URL)', ['DOZQKEY']],
    // A password with no user name.
    ['aws=http://:ZQpassword@127.0.0.1:9000', 'aws= must not carry credentials (user:password@ in the URL)', ['ZQpassword']],
    // Not a URL at all, and still not quoted: the part after the @ may be a password.
    ['aws=http://user:zq pass@', 'aws= must not carry credentials (user:password@ in the URL)', ['zq pass']],
    [
      'azure=http://127.0.0.1:10000/devstoreaccount1?sv=2024-11-04&sig=ZQsasSignature',
      'azure= must not carry a query string or fragment (a SAS token is a credential)',
      ['ZQsasSignature', 'sv=2024'],
    ],
    ['aws=http://127.0.0.1:9000/?', 'aws= must not carry a query string or fragment (a SAS token is a credential)', []],
    ['aws=http://127.0.0.1:9000/#ZQfragment', 'aws= must not carry a query string or fragment (a SAS token is a credential)', ['ZQfragment']],
    // Not a URL at all, with what may be a token after its ?.
    ['azure=http://blob host?sig=ZQtoken', 'azure= must not carry a query string or fragment (a SAS token is a credential)', ['ZQtoken']],
  ])('an endpoint URL with credentials, %s, is refused without quoting them', (entry, why, secrets) => {
    const fromFlag = reason(['--storage-endpoint', entry]);
    expect(fromFlag).toBe(`--storage-endpoint ${why}: ${shown}`);
    const fromEnv = reason([], { EMULATOR_STORAGE_ENDPOINTS: entry });
    expect(fromEnv).toBe(`EMULATOR_STORAGE_ENDPOINTS ${why}: ${shown}`);
    for (const secret of secrets) expect(fromFlag + fromEnv).not.toContain(secret);
  });

  it('endpoints given in code are checked the same way', () => {
    expect(storageEndpointsProblem({ aws: 'http://127.0.0.1:9000', azure: 'http://127.0.0.1:10000/devstoreaccount1', sftpHosts: ['*'] })).toBeUndefined();
    expect(storageEndpointsProblem({})).toBeUndefined();
    // An @ in the path is no user name: only the URL's own credentials are refused.
    expect(storageEndpointsProblem({ aws: 'http://127.0.0.1:9000/team@example' })).toBeUndefined();
    expect(storageEndpointsProblem({ azure: 'http://127.0.0.1:10000/devstoreaccount1?sig=ZQsasSignature' })).toBe(
      `azure= must not carry a query string or fragment (a SAS token is a credential): ${shown}`,
    );
    expect(storageEndpointsProblem({ digitalocean: 'http://key:ZQsecret@minio:9000' })).toBe(
      `digitalocean= must not carry credentials (user:password@ in the URL): ${shown}`,
    );
  });
});
