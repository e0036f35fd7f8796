// GET /_emulator/tls/certificate: the TLS listener's certificate (PEM), so that a client can
// trust it: NODE_EXTRA_CA_CERTS for Node, a browser's or the system's certificate store.
import { errors } from '../core/errors.js';
import { route } from '../http/route.js';

export const tlsRoutes = [
  route({
    method: 'get',
    path: '/_emulator/tls/certificate',
    api: 'control',
    auth: 'none',
    tag: 'Control: system',
    summary: "The TLS listener's certificate (PEM): made by the emulator on first use, or the --tls-cert file",
    responses: {
      200: { description: 'The certificate, PEM', contentType: 'application/x-pem-file' },
      404: { description: 'The TLS listener is off (--tls-port 0)' },
    },
    handler: async ({ deps, res }) => {
      if (deps.config.tlsPort === null) throw errors.notFoundMessage('The TLS listener is off (--tls-port 0): there is no certificate');
      const { cert } = await deps.tls.credentials();
      res.statusCode = 200;
      res.setHeader('content-type', 'application/x-pem-file');
      res.setHeader('content-disposition', 'attachment; filename="meetings-emulator-localhost.pem"');
      res.setHeader('content-length', Buffer.byteLength(cert));
      res.end(cert);
      return undefined;
    },
  }),
];
