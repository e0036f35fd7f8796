// The TLS listener (docs/frontend-offline.md, "The TLS listener and its certificate"). The web
// SDKs call `https://<prefix>.<base>` and `wss://socket-edge.<base>` with the schemes fixed, so
// the emulator answers on a second port with TLS: every route of the plain port, the SDK's hosts,
// and the upgrades of the signalling socket.
//
// Its certificate is the user's (--tls-cert, --tls-key, e.g. from mkcert) or one the emulator
// makes: an EC P-256 key and a self-signed certificate naming localhost, its loopback addresses
// and each SDK host explicitly (browsers may refuse a wildcard right under `localhost`). Making
// one needs @peculiar/x509, whose loading costs several times the rest of a start, so it is made
// on first use (the first TLS connection, or a download of it) and kept for the process.
import { createHash, webcrypto } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer, type Server as HttpsServer, type ServerOptions } from 'node:https';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { createSecureContext } from 'node:tls';
import { realNow } from '../core/clock.js';
import { SDK_HOSTS } from './hosts.js';

export const CERTIFICATE_DNS_NAMES: readonly string[] = ['localhost', ...SDK_HOSTS.map((h) => `${h}.localhost`)];
export const CERTIFICATE_IPS: readonly string[] = ['127.0.0.1', '::1'];

const DAY_MS = 24 * 60 * 60 * 1000;
/** Emulator decision: a made certificate is valid from a day before the start (clock skew) for a year. */
const CERTIFICATE_DAYS = 365;

export interface TlsCredentials {
  /** PEM. */
  cert: string;
  /** PEM. */
  key: string;
}

/** --tls-cert / --tls-key cannot be used; the message is one line, fit for the command line. */
export class TlsFileError extends Error {}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** --tls-cert and --tls-key, read and checked now: both or neither, PEM, a key that matches the certificate. */
export function credentialsFromFiles(certFile: string | undefined, keyFile: string | undefined): TlsCredentials | undefined {
  if (certFile === undefined && keyFile === undefined) return undefined;
  if (certFile === undefined || keyFile === undefined) {
    throw new TlsFileError('--tls-cert and --tls-key go together: give both, or neither for a certificate made by the emulator');
  }
  const read = (flag: string, file: string) => {
    try {
      return readFileSync(file, 'utf8');
    } catch (err) {
      throw new TlsFileError(`cannot read ${flag} ${file} (${(err as NodeJS.ErrnoException).code ?? oneLine((err as Error).message)})`);
    }
  };
  const credentials = { cert: read('--tls-cert', certFile), key: read('--tls-key', keyFile) };
  try {
    createSecureContext(credentials);
  } catch (err) {
    throw new TlsFileError(
      `--tls-cert ${certFile} and --tls-key ${keyFile} are not a PEM certificate and its private key (${oneLine((err as Error).message)})`,
    );
  }
  return credentials;
}

/** A fresh EC P-256 key and a self-signed certificate for the loopback names, valid from `nowMs` (real time). */
export async function selfSignedCredentials(nowMs: number): Promise<TlsCredentials> {
  const x509 = await import('@peculiar/x509');
  const crypto = webcrypto;
  x509.cryptoProvider.set(crypto as Parameters<typeof x509.X509CertificateGenerator.createSelfSigned>[1] & object);
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  // Random even under --seed: the key is the listener's, not part of the emulated API, and a key
  // anyone could derive from a seed would be no key at all.
  const keys = await crypto.subtle.generateKey(algorithm, true, ['sign', 'verify']);
  // The serial number only has to differ between certificates: the key's hash does, with no
  // second source of randomness (a leading 01 keeps it positive, as DER integers need).
  const spki = Buffer.from(await crypto.subtle.exportKey('spki', keys.publicKey));
  const serialNumber = `01${createHash('sha256').update(spki).digest('hex').slice(0, 30)}`;
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber,
    name: 'CN=meetings-emulator localhost, O=meetings-emulator',
    notBefore: new Date(nowMs - DAY_MS),
    notAfter: new Date(nowMs + CERTIFICATE_DAYS * DAY_MS),
    signingAlgorithm: algorithm,
    keys: keys as Parameters<typeof x509.X509CertificateGenerator.createSelfSigned>[0]['keys'],
    extensions: [
      // Not a CA: Firefox refuses a CA certificate as a server's own.
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension([
        ...CERTIFICATE_DNS_NAMES.map((value) => ({ type: 'dns' as const, value })),
        ...CERTIFICATE_IPS.map((value) => ({ type: 'ip' as const, value })),
      ]),
    ],
  });
  const pkcs8 = Buffer.from(await crypto.subtle.exportKey('pkcs8', keys.privateKey)).toString('base64');
  return { cert: certificate.toString('pem'), key: `-----BEGIN PRIVATE KEY-----\n${pkcs8.replace(/.{1,64}/g, '$&\n')}-----END PRIVATE KEY-----\n` };
}

/** The listener's credentials: the given ones, or one certificate made on first use and kept. */
export class TlsIdentity {
  private made: Promise<TlsCredentials> | undefined;

  constructor(private readonly given: TlsCredentials | undefined) {}

  credentials(): Promise<TlsCredentials> {
    if (this.given) return Promise.resolve(this.given);
    this.made ??= selfSignedCredentials(realNow());
    return this.made;
  }
}

export interface TlsListener {
  /** Serves the connections: attach 'request', 'upgrade' and 'clientError' as on the plain server. It does not listen itself. */
  server: HttpsServer;
  /** Accepts the connections on the port and hands them to `server` once the credentials exist. */
  listener: NetServer;
}

/**
 * A TLS server whose credentials may not exist yet. The port is held by a plain listener whose
 * connections stay paused (nothing read) until the credentials are made; then each is handed to
 * the HTTPS server, which reads the TLS handshake from the start. `classes`: the request and response
 * classes the HTTPS server makes its objects with (the plain server's).
 */
export function createTlsListener(
  identity: TlsIdentity,
  onError: (err: unknown) => void,
  classes: Pick<ServerOptions, 'IncomingMessage' | 'ServerResponse'>,
): TlsListener {
  const server = createHttpsServer({ ...classes });
  let ready: Promise<void> | undefined;
  let set = false;
  const listener = createNetServer({ pauseOnConnect: true }, (socket: Socket) => {
    if (set) {
      server.emit('connection', socket);
      return;
    }
    // A client that goes away while it waits must not take the process with it.
    socket.on('error', () => socket.destroy());
    ready ??= identity.credentials().then((credentials) => {
      server.setSecureContext(credentials);
      set = true;
    });
    ready.then(
      () => (listener.listening ? server.emit('connection', socket) : socket.destroy()),
      (err: unknown) => {
        // Logged once; the next connection tries again.
        if (ready) onError(err);
        ready = undefined;
        socket.destroy();
      },
    );
  });
  // The HTTPS server never listens itself. Its checks of slow requests (headersTimeout,
  // requestTimeout: a 408, as on the plain port) start when it hears 'listening' and stop at its close.
  listener.on('listening', () => server.emit('listening'));
  listener.on('close', () => server.close());
  return { server, listener };
}
