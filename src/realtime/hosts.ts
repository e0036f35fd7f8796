// The hosts the web SDKs call. The page passes a base to init() (`baseURI: 'localhost:4443'`) and
// the SDK calls `https://<prefix>.<base>` (`wss://` for the socket) for each prefix below; the
// schemes are fixed, hence the TLS listener. One list: the routes name their host from it and
// the certificate made at start names each of them.
export const SDK_HOSTS = ['api', 'socket-edge', 'flags', 'location', 'location-legacy', 'api-silos', 'da-collector'] as const;
export type SdkHost = (typeof SDK_HOSTS)[number];

/** The base a request on an SDK host was made for: `localhost:4443` of `api.localhost:4443`; undefined on any other host. */
export function sdkBaseOf(host: string | undefined): string | undefined {
  if (!host) return undefined;
  const dot = host.indexOf('.');
  if (dot <= 0 || !(SDK_HOSTS as readonly string[]).includes(host.slice(0, dot).toLowerCase())) return undefined;
  return host.slice(dot + 1);
}
