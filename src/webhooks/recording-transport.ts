// A transport that sends nothing: it records each request and answers what the test scripts
// (200 by default). For unit tests and in-process use without a receiver.
import type { TransportRequest, TransportResult, WebhookTransport } from './transport.js';

export type Responder = (request: TransportRequest, index: number) => TransportResult | Promise<TransportResult>;

export class RecordingTransport implements WebhookTransport {
  readonly requests: TransportRequest[] = [];
  private responder: Responder;

  constructor(responder: Responder = () => ({ statusCode: 200, error: null })) {
    this.responder = responder;
    this.reset();
  }

  /** Scripts the answers from now on. */
  respondWith(responder: Responder): void {
    this.responder = responder;
  }

  async send(request: TransportRequest): Promise<TransportResult> {
    const index = this.requests.length;
    this.requests.push({ ...request, headers: { ...request.headers }, body: Buffer.from(request.body) });
    return this.responder(request, index);
  }

  /** Forgets the recorded requests (the responder stays). */
  reset(): void {
    this.requests.length = 0;
  }

  close(): void {}
}
