// Real storage servers for the upload tests, started by the tests themselves on the loopback and
// ended by them: an S3-compatible server (s3rver), Azure's blob service (Azurite, in a child
// process) and an SFTP server (the ssh2 package's server, over a folder of its own).
import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir, open, stat } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { BlobServiceClient, StorageSharedKeyCredential } from '@azure/storage-blob';
import ssh2 from 'ssh2';
import S3rver from 's3rver';

const require = createRequire(import.meta.url);

// --- S3 ---------------------------------------------------------------------------------------

/** s3rver's one account: its key id is checked (a wrong one is refused); it does not check SigV4 signatures. */
export const S3_ACCESS_KEY = 'S3RVER';
export const S3_SECRET = 'S3RVER';

export interface S3Server {
  url: string;
  /** The object's bytes, or undefined when there is none at that key. */
  get(bucket: string, key: string): Promise<Buffer | undefined>;
  close(): Promise<void>;
}

export async function startS3(buckets: string[]): Promise<S3Server> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'emulator-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: dir,
    vhostBuckets: false,
    configureBuckets: buckets.map((name) => ({ name, configs: [] })),
  });
  const address = (await server.run()) as { address: string; port: number };
  const url = `http://127.0.0.1:${address.port}`;
  const client = new S3Client({
    endpoint: url,
    forcePathStyle: true,
    region: 'us-east-1',
    credentials: { accessKeyId: S3_ACCESS_KEY, secretAccessKey: S3_SECRET },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return {
    url,
    async get(bucket, key) {
      try {
        const got = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        return Buffer.from(await got.Body!.transformToByteArray());
      } catch (err) {
        if ((err as { name?: string }).name === 'NoSuchKey') return undefined;
        throw err;
      }
    },
    async close() {
      client.destroy();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// --- Azure ------------------------------------------------------------------------------------

/** Azurite's well-known development account (its documented name and key). */
export const AZURE_ACCOUNT = 'devstoreaccount1';
export const AZURE_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';

export interface AzureServer {
  /** The blob service, the account in its path. */
  url: string;
  createContainer(name: string): Promise<void>;
  get(container: string, blob: string): Promise<Buffer | undefined>;
  close(): Promise<void>;
}

export async function startAzurite(): Promise<AzureServer> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'emulator-azurite-'));
  const main = require.resolve('azurite/dist/src/blob/main.js');
  const child: ChildProcess = spawn(
    process.execPath,
    [main, '--blobHost', '127.0.0.1', '--blobPort', '0', '--location', dir, '--skipApiVersionCheck', '--disableTelemetry', '--silent'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /successfully listens on https?:\/\/[^:]+:(\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`Azurite exited (${code}) before listening: ${out}`)));
  });
  const url = `http://127.0.0.1:${port}/${AZURE_ACCOUNT}`;
  const service = new BlobServiceClient(url, new StorageSharedKeyCredential(AZURE_ACCOUNT, AZURE_KEY));
  return {
    url,
    async createContainer(name) {
      await service.getContainerClient(name).create();
    },
    async get(container, blob) {
      const client = service.getContainerClient(container).getBlockBlobClient(blob);
      if (!(await client.exists())) return undefined;
      return client.downloadToBuffer();
    },
    async close() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// --- SFTP -------------------------------------------------------------------------------------

export interface SftpServer {
  host: string;
  port: number;
  /** The folder the server serves: a login lands in it, and "/" is it too. */
  root: string;
  /** A key pair whose public half the server accepts for `username` (KEY auth). */
  clientKey: { privatePem: string };
  close(): Promise<void>;
}

const { Server, utils } = ssh2;
const { OPEN_MODE, STATUS_CODE } = utils.sftp;

/**
 * An SFTP server over a temporary folder: PASSWORD auth with `password`, KEY auth with the key
 * pair it makes; it serves what an upload needs (stat, mkdir, open for writing, write, close).
 */
export async function startSftp(username: string, password: string): Promise<SftpServer> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'emulator-sftp-'));
  // PKCS#1 PEM: the form of RSA key ssh2 reads.
  const hostKey = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const client = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const allowed = utils.parseKey(client.privateKey);
  if (allowed instanceof Error) throw allowed;
  const allowedKey = Array.isArray(allowed) ? allowed[0]! : allowed;
  const inRoot = (p: string) => path.join(root, path.posix.normalize(`/${p}`));
  const connections = new Set<net.Socket>();

  const server = new Server({ hostKeys: [hostKey.privateKey] }, (conn) => {
    conn.on('authentication', (ctx) => {
      if (ctx.username !== username) return ctx.reject();
      if (ctx.method === 'password' && ctx.password === password) return ctx.accept();
      if (ctx.method === 'publickey' && ctx.key.algo === allowedKey.type && ctx.key.data.equals(allowedKey.getPublicSSH())) {
        if (!ctx.signature) return ctx.accept();
        if (allowedKey.verify(ctx.blob!, ctx.signature, ctx.hashAlgo) === true) return ctx.accept();
      }
      ctx.reject(['password', 'publickey']);
    });
    conn.on('error', () => undefined);
    conn.on('ready', () => {
      conn.on('session', (accept) => {
        const session = accept();
        session.on('sftp', (acceptSftp) => {
          const sftp = acceptSftp();
          const handles = new Map<number, Awaited<ReturnType<typeof open>>>();
          let next = 0;
          const fail = (reqid: number, err: unknown) =>
            sftp.status(reqid, (err as NodeJS.ErrnoException).code === 'ENOENT' ? STATUS_CODE.NO_SUCH_FILE : STATUS_CODE.FAILURE);
          sftp.on('REALPATH', (reqid, p) => sftp.name(reqid, [{ filename: path.posix.normalize(`/${p}`), longname: '', attrs: {} as never }]));
          sftp.on('STAT', (reqid, p) => {
            stat(inRoot(p)).then(
              (s) => sftp.attrs(reqid, { mode: s.mode, uid: 0, gid: 0, size: s.size, atime: 0, mtime: 0 }),
              (err) => fail(reqid, err),
            );
          });
          sftp.on('LSTAT', (reqid, p) => sftp.emit('STAT', reqid, p));
          sftp.on('MKDIR', (reqid, p) => {
            mkdir(inRoot(p)).then(
              () => sftp.status(reqid, STATUS_CODE.OK),
              (err) => fail(reqid, err),
            );
          });
          sftp.on('OPEN', (reqid, filename, flags) => {
            const mode = flags & OPEN_MODE.WRITE ? 'w' : 'r';
            open(inRoot(filename), mode).then(
              (fh) => {
                const id = next++;
                handles.set(id, fh);
                const h = Buffer.alloc(4);
                h.writeUInt32BE(id, 0);
                sftp.handle(reqid, h);
              },
              (err) => fail(reqid, err),
            );
          });
          sftp.on('WRITE', (reqid, handle, offset, data) => {
            const fh = handles.get(handle.readUInt32BE(0));
            if (!fh) return sftp.status(reqid, STATUS_CODE.FAILURE);
            fh.write(data, 0, data.length, offset).then(
              () => sftp.status(reqid, STATUS_CODE.OK),
              (err) => fail(reqid, err),
            );
          });
          sftp.on('FSTAT', (reqid, handle) => {
            const fh = handles.get(handle.readUInt32BE(0));
            if (!fh) return sftp.status(reqid, STATUS_CODE.FAILURE);
            fh.stat().then(
              (s) => sftp.attrs(reqid, { mode: s.mode, uid: 0, gid: 0, size: s.size, atime: 0, mtime: 0 }),
              (err) => fail(reqid, err),
            );
          });
          sftp.on('SETSTAT', (reqid) => sftp.status(reqid, STATUS_CODE.OK));
          sftp.on('FSETSTAT', (reqid) => sftp.status(reqid, STATUS_CODE.OK));
          sftp.on('CLOSE', (reqid, handle) => {
            const id = handle.readUInt32BE(0);
            const fh = handles.get(id);
            handles.delete(id);
            (fh ? fh.close() : Promise.resolve()).then(
              () => sftp.status(reqid, STATUS_CODE.OK),
              (err) => fail(reqid, err),
            );
          });
        });
      });
    });
  });
  server.on('connection', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const netServer = (server as unknown as { _srv: net.Server })._srv;
  netServer.on('connection', (socket: net.Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  const port = (server.address() as net.AddressInfo).port;
  return {
    host: '127.0.0.1',
    port,
    root,
    clientKey: { privatePem: client.privateKey },
    async close() {
      for (const s of connections) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** A TCP port that accepts connections and never answers (a storage that hangs). */
export async function startSilentServer(): Promise<{ url: string; port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    sockets.add(s);
    s.on('error', () => undefined);
    s.once('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A loopback port nothing listens on (a refusing host): 9, the old discard service's, which the
 * suite's dead webhook URLs use too. A port bound and let go would do only until another test's
 * server on the other worker is given the same number (the system hands ephemeral ports out again),
 * and an upload to it then reached that server; a port below 1024 is never handed out that way.
 * Checked here, so a machine where something does listen there says so instead of failing later.
 */
export async function refusingPort(): Promise<number> {
  const port = 9;
  const refused = await new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'ECONNREFUSED'));
  });
  if (!refused) throw new Error(`something listens on 127.0.0.1:${port} on this machine; these tests need a port that refuses`);
  return port;
}
