// The errors a room's request ends in when the emulator cannot serve it. Kept in a module of their
// own, free of the socket's codec, so that the media plane can throw them in a process of its own.

/** A request the emulator cannot serve: answered on the SDK's error event, which rejects the page's pending call. */
export class Unserved extends Error {}

/** A request reached a transport that closed before it or while it was served (replaced, failed, its page gone). */
export class TransportClosed extends Unserved {
  constructor() {
    super('The transport is closed');
  }
}
