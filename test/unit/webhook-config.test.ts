import { describe, expect, it } from 'vitest';
import { defaultConfig, helpText, parseConfig } from '../../src/config.js';
import { configWebhooks } from '../../src/webhooks/dispatcher.js';

describe('webhook options', () => {
  it('defaults: no config webhooks, a 3 s timeout, a log of 10 000', () => {
    const c = defaultConfig();
    expect(c.webhookUrls).toEqual([]);
    expect(c.webhookTimeoutMs).toBe(3000);
    expect(c.deliveryLogSize).toBe(10_000);
  });

  it.each([
    [['--webhook-url', 'http://127.0.0.1:3000/hook'], {}, ['http://127.0.0.1:3000/hook']],
    [['--webhook-url=http://a.test/x, https://b.test/y/'], {}, ['http://a.test/x', 'https://b.test/y/']],
    [[], { EMULATOR_WEBHOOK_URLS: 'http://a.test/x,http://b.test/y' }, ['http://a.test/x', 'http://b.test/y']],
    [['--webhook-url', 'http://flag.test/'], { EMULATOR_WEBHOOK_URLS: 'http://env.test/' }, ['http://flag.test/']],
  ])('webhook urls from %j and env %j', (argv, env, urls) => {
    const r = parseConfig(argv, env);
    expect(r.ok && 'config' in r && r.config.webhookUrls).toEqual(urls);
  });

  it.each([
    [['--webhook-timeout-ms', '50'], {}, 'webhookTimeoutMs', 50],
    [[], { EMULATOR_WEBHOOK_TIMEOUT_MS: '1500' }, 'webhookTimeoutMs', 1500],
    [['--delivery-log-size', '3'], {}, 'deliveryLogSize', 3],
    [[], { EMULATOR_DELIVERY_LOG_SIZE: '250' }, 'deliveryLogSize', 250],
  ] as const)('%j %j sets %s to %i', (argv, env, key, value) => {
    const r = parseConfig([...argv], env);
    expect(r.ok && 'config' in r && r.config[key]).toBe(value);
  });

  it.each([
    [['--webhook-url', 'ftp://a.test/'], /--webhook-url must be comma-separated http\(s\) URLs, got "ftp:\/\/a.test\/"/],
    [['--webhook-url', 'not a url'], /--webhook-url must be comma-separated http\(s\) URLs/],
    [['--webhook-url', ' , '], /--webhook-url must list at least one http\(s\) URL/],
    [['--webhook-url', 'http://a.test/,http://a.test/'], /--webhook-url must not list the same URL twice/],
    [['--webhook-timeout-ms', '0'], /--webhook-timeout-ms must be between 1 and 600000/],
    [['--webhook-timeout-ms', '2.5'], /--webhook-timeout-ms must be a whole number/],
    [['--delivery-log-size', '0'], /--delivery-log-size must be between 1 and 1000000/],
  ])('%j is refused with a reason', (argv, reason) => {
    const r = parseConfig(argv, {});
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toMatch(reason);
  });

  it('lists the three options with their env vars in --help', () => {
    const help = helpText();
    for (const s of [
      '--webhook-url',
      'EMULATOR_WEBHOOK_URLS',
      '--webhook-timeout-ms',
      'EMULATOR_WEBHOOK_TIMEOUT_MS',
      '--delivery-log-size',
      'EMULATOR_DELIVERY_LOG_SIZE',
    ])
      expect(help).toContain(s);
  });
});

describe('config webhooks', () => {
  it('get stable, distinct UUID-shaped ids derived from position and url', () => {
    const a = configWebhooks(['http://a.test/', 'http://b.test/']);
    const again = configWebhooks(['http://a.test/', 'http://b.test/']);
    expect(again).toEqual(a);
    expect(a.map((w) => w.url)).toEqual(['http://a.test/', 'http://b.test/']);
    expect(a.map((w) => w.name)).toEqual(['config webhook 1', 'config webhook 2']);
    for (const w of a) expect(w.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a[0]!.id).not.toBe(a[1]!.id);
    expect(configWebhooks(['http://b.test/'])[0]!.id).not.toBe(a[1]!.id);
  });
});
