import { describe, expect, it } from 'vitest';
import { checkWebhookUrl, isPublicAddress } from './webhook-url.js';

/** SSRF: what a webhook URL may point at, deployed and locally (issue 18). */
const names: Record<string, string[]> = {
  'hooks.example.com': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  'sneaky.example.com': ['93.184.215.14', '10.1.2.3'], // one private answer is enough to refuse
  'metadata.example.com': ['169.254.169.254'],
  'v6metadata.example.com': ['fd00:ec2::254'],
  localhost: ['127.0.0.1'],
};
const resolve = (host: string) => (names[host] ? Promise.resolve(names[host]) : Promise.reject(new Error('ENOTFOUND')));

describe('webhook URLs, deployed', () => {
  it.each([
    'http://hooks.example.com/webhooks', // not https
    'https://10.0.0.1/',
    'https://172.16.5.4/',
    'https://192.168.1.1/',
    'https://127.0.0.1/',
    'https://localhost/',
    'https://2130706433/', // 127.0.0.1, as a number
    'https://0x7f.1/', // 127.0.0.1, in hex
    'https://[::1]/',
    'https://[::ffff:127.0.0.1]/',
    'https://[::ffff:a9fe:a9fe]/', // 169.254.169.254, IPv4-mapped
    'https://169.254.169.254/latest/meta-data/',
    'https://[fd00:ec2::254]/',
    'https://[fe80::1]/',
    'https://[::7f00:1]/', // IPv4-compatible 127.0.0.1
    'https://[2002:7f00:1::1]/', // 6to4 of 127.0.0.1
    'https://[64:ff9b:1::a9fe:a9fe]/', // local-use NAT64 of 169.254.169.254
    'https://[fec0::1]/', // site-local
    'https://[::ffff:0:a9fe:a9fe]/', // IPv4-translated
    'https://192.88.99.1/',
    'https://[2001:10::1]/',
    'https://[3fff::1]/',
    'https://[5f00::1]/',
    'https://100.64.0.1/',
    'https://0.0.0.0/',
    'https://224.0.0.1/',
    'https://sneaky.example.com/',
    'https://metadata.example.com/',
    'https://v6metadata.example.com/',
    'https://does-not-resolve.example/',
    'https://user:pass@hooks.example.com/',
    'ftp://hooks.example.com/',
    'not a url',
    `https://hooks.example.com/${'a'.repeat(2100)}`,
  ])('refuses %s', async (url) => {
    expect(await checkWebhookUrl(url, 'deployed', resolve)).toMatchObject({ ok: false });
  });

  it('accepts an https URL whose host resolves to public addresses only', async () => {
    expect(await checkWebhookUrl('https://hooks.example.com/webhooks?shop=1', 'deployed', resolve)).toEqual({
      ok: true,
      url: 'https://hooks.example.com/webhooks?shop=1',
    });
    expect(await checkWebhookUrl('https://93.184.215.14:8443/in', 'deployed', resolve)).toMatchObject({ ok: true });
  });

  it('takes port 443 and ports from 1024 up only', async () => {
    for (const port of ['', ':443', ':1024', ':8443', ':65535']) {
      expect(await checkWebhookUrl(`https://hooks.example.com${port}/in`, 'deployed', resolve), port).toMatchObject({ ok: true });
    }
    for (const port of [':22', ':25', ':80', ':444', ':1023']) {
      expect(await checkWebhookUrl(`https://hooks.example.com${port}/in`, 'deployed', resolve), port).toEqual({
        ok: false,
        reason: 'must use port 443 or a port from 1024 up',
      });
    }
  });
});

describe('webhook URLs, npm start', () => {
  it('also accepts http://localhost and http://127.0.0.1, and nothing else private', async () => {
    expect(await checkWebhookUrl('http://localhost:4000/hooks', 'local', resolve)).toMatchObject({ ok: true });
    expect(await checkWebhookUrl('http://127.0.0.1:4000/hooks', 'local', resolve)).toMatchObject({ ok: true });
    for (const url of ['http://10.0.0.1/', 'https://169.254.169.254/', 'http://hooks.example.com/', 'https://192.168.1.1/']) {
      expect(await checkWebhookUrl(url, 'local', resolve)).toMatchObject({ ok: false });
    }
  });

  it('refuses the service’s own ports and its database’s on every loopback spelling', async () => {
    const policy = { local: { refusedPorts: [3000, 8000] } };
    for (const url of ['http://localhost:3000/hooks', 'http://127.0.0.1:8000/', 'http://[::1]:3000/x', 'https://localhost:8000/']) {
      expect(await checkWebhookUrl(url, policy, resolve), url).toMatchObject({ ok: false, reason: expect.stringContaining('must not use port') });
    }
    expect(await checkWebhookUrl('http://127.0.0.1:4000/hooks', policy, resolve)).toMatchObject({ ok: true });
    for (const url of ['http://localhost/hooks', 'http://127.0.0.1:22/', 'http://localhost:0/', 'http://[::1]:1023/']) {
      expect(await checkWebhookUrl(url, policy, resolve), url).toEqual({ ok: false, reason: 'must use a port from 1024 up locally' });
    }
  });
});

describe('public addresses', () => {
  it('are told from every reserved range, IPv4 and IPv6', () => {
    expect(['8.8.8.8', '93.184.215.14', '2606:4700::1111'].every(isPublicAddress)).toBe(true);
    expect(['127.0.0.2', '10.255.255.255', '169.254.1.1', '::1', 'fc00::1', '::ffff:10.0.0.1', 'not-an-ip'].some(isPublicAddress)).toBe(false);
  });
});

describe('webhook URLs, their length', () => {
  it('holds the 2,048 characters on the URL as stored, percent-encoded, not only as typed', async () => {
    const typed = `https://hooks.example.com/${'é'.repeat(1000)}`; // 1,026 characters typed, 6,026 encoded
    expect(typed.length).toBeLessThanOrEqual(2048);
    const verdict = await checkWebhookUrl(typed, 'deployed', resolve);
    expect(verdict).toEqual({ ok: false, reason: 'must be at most 2048 characters once encoded (6026: each character outside ASCII takes 6 to 12)' });
    const fits = `https://hooks.example.com/${'é'.repeat(300)}`; // 1,826 encoded
    expect(await checkWebhookUrl(fits, 'deployed', resolve)).toEqual({ ok: true, url: `https://hooks.example.com/${'%C3%A9'.repeat(300)}` });
  });
});
