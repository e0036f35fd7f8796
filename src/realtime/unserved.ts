// The one error a room's request ends in when the emulator cannot serve it. Kept in a module of its
// own, free of the socket's codec, so that the media plane can throw it in a process of its own.

/** A request the emulator cannot serve: answered on the SDK's error event, which rejects the page's pending call. */
export class Unserved extends Error {}
