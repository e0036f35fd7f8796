// Storage credentials (access_key, secret_key also spelled secret, password, private_key) are
// write-only: no answer, export, journal, log, webhook or dashboard may ever show them. Uploads to
// the app's own storage need them all the same, so they are kept here and nowhere else: in memory,
// by the config they came with (a recording's, a meeting's recording_config, the organization's
// stored config), never in a model, so a state export cannot carry them.
//
// The request parse takes them off the storage config it returns (storageConfigBody) and hangs
// them on it under a symbol that no spread, JSON.stringify or structuredClone copies; the service
// that keeps the config takes them from there into this vault (takeStorageSecrets).

/** The credentials of one storage config, as given. */
export interface StorageSecrets {
  /** `access_key`: the S3 access key id; Azure's account name (or its connection string). */
  accessKey?: string;
  /** `secret_key`, also spelled `secret`: the S3 secret key; Azure's account key. */
  secret?: string;
  /** `password`: SFTP's password, or the private key's passphrase with KEY auth. */
  password?: string;
  /** `private_key`: SFTP's private key (PEM or OpenSSH). */
  privateKey?: string;
}

const HELD = Symbol('storage secrets');

type Carrier = Record<string | symbol, unknown>;

/** Hangs the secrets on a storage config being parsed, where only takeStorageSecrets finds them. */
export function holdSecretsOn<T extends object>(config: T, secrets: StorageSecrets): T {
  Object.defineProperty(config, HELD, { value: Object.freeze({ ...secrets }), enumerable: false, configurable: true });
  return config;
}

/** The secrets a parsed storage config carries (none when it came from anywhere but a request). */
export function secretsCarriedBy(config: unknown): StorageSecrets | undefined {
  if (config === null || typeof config !== 'object') return undefined;
  return (config as Carrier)[HELD] as StorageSecrets | undefined;
}

/** Takes the secrets off a parsed storage config: what it carried, and the config without them. */
export function takeStorageSecrets(config: object): StorageSecrets | undefined {
  const secrets = secretsCarriedBy(config);
  delete (config as Carrier)[HELD];
  return secrets;
}

/** The secrets a recording_config (as parsed) carries in its storage_config, taken off it. */
export function takeRecordingConfigSecrets(recordingConfig: Record<string, unknown> | null | undefined): StorageSecrets | undefined {
  const storage = recordingConfig?.storage_config;
  return storage !== null && typeof storage === 'object' ? takeStorageSecrets(storage) : undefined;
}

/** What the vault answers for a recording: its secrets, or why it has none. */
export type HeldSecrets = { held: true; secrets: StorageSecrets } | { held: false };

/**
 * The one place storage credentials are kept. Keys: a recording's id; an organization and one of
 * its meetings; an organization. A reset, an organization's reset and a state import empty it:
 * a recording loaded from a state document has none (its upload says so).
 */
export class StorageSecretVault {
  private readonly recordings = new Map<string, { orgId: string; secrets: StorageSecrets }>();
  private readonly meetings = new Map<string, StorageSecrets>();
  private readonly orgs = new Map<string, StorageSecrets>();

  constructor() {
    this.reset();
  }

  holdForRecording(orgId: string, recordingId: string, secrets: StorageSecrets): void {
    this.recordings.set(recordingId, { orgId, secrets });
  }

  forRecording(recordingId: string): HeldSecrets {
    const entry = this.recordings.get(recordingId);
    return entry ? { held: true, secrets: entry.secrets } : { held: false };
  }

  /** A meeting's recording_config was set: its storage config's secrets replace the ones before (none: removed). */
  holdForMeeting(orgId: string, meetingId: string, secrets: StorageSecrets | undefined): void {
    const key = `${orgId}/${meetingId}`;
    if (secrets) this.meetings.set(key, secrets);
    else this.meetings.delete(key);
  }

  forMeeting(orgId: string, meetingId: string): StorageSecrets | undefined {
    return this.meetings.get(`${orgId}/${meetingId}`);
  }

  /** The organization's stored recording config was set (none: removed). */
  holdForOrg(orgId: string, secrets: StorageSecrets | undefined): void {
    if (secrets) this.orgs.set(orgId, secrets);
    else this.orgs.delete(orgId);
  }

  forOrg(orgId: string): StorageSecrets | undefined {
    return this.orgs.get(orgId);
  }

  /** Every secret value held for an organization's recording (to keep them out of an error's text). */
  valuesFor(recordingId: string): string[] {
    const s = this.recordings.get(recordingId)?.secrets;
    return s ? [s.accessKey, s.secret, s.password, s.privateKey].filter((v): v is string => typeof v === 'string' && v.length > 0) : [];
  }

  forgetRecording(recordingId: string): void {
    this.recordings.delete(recordingId);
  }

  /** An organization's reset: everything it held goes. */
  resetOrg(orgId: string): void {
    for (const [id, e] of this.recordings) if (e.orgId === orgId) this.recordings.delete(id);
    for (const key of this.meetings.keys()) if (key.startsWith(`${orgId}/`)) this.meetings.delete(key);
    this.orgs.delete(orgId);
  }

  /** A reset or a state import: nothing is held any more. */
  reset(): void {
    this.recordings.clear();
    this.meetings.clear();
    this.orgs.clear();
  }

  /** How many recordings hold secrets (tests of the resets). */
  get size(): number {
    return this.recordings.size + this.meetings.size + this.orgs.size;
  }
}
