// The SDK's key-value stores (its plugins', and its own shared state such as RealtimeKit's): kept
// per meeting while a page of it is connected, the way a room keeps them, and bounded so that a
// page cannot grow the emulator's memory without end. Every page of the meeting hears a change.
import { Unserved, type Peer } from '../peer.js';
import { decodeAs } from '../protocol/codec.js';
import { SDK_EVENTS } from '../protocol/events.js';
import type { Handler, RoomFeature, RoomState } from '../room-state.js';

const { plugin: PLUGIN } = SDK_EVENTS;

export const MAX_STORES_PER_MEETING = 100;
export const MAX_KEYS_PER_STORE = 1_000;

export type StoreChange = typeof PLUGIN.storeInsertKeys | typeof PLUGIN.storeDeleteKeys | typeof PLUGIN.storeDelete;

interface StoreRequest {
  plugin_id: string;
  store_name: string;
}

interface StoreKeys {
  store_key: string;
  payload?: Uint8Array;
}

type StoreItem = {
  timestamp: string;
  peer_id: string;
  store_key: string;
  payload: Uint8Array;
};

/** socket.plugin.PluginStoreResponse (a type, not an interface: it is a protobuf object as it is). */
export type StoreAnswer = {
  plugin_id: string;
  store_name: string;
  store_items: StoreItem[];
};

export class PluginStores {
  /** Meeting → plugin and store name → key → item. */
  private readonly meetings = new Map<string, Map<string, Map<string, StoreItem>>>();

  /** The items asked for (all of them when no key is named). */
  read(meetingId: string, request: StoreRequest & { get_keys: StoreKeys[] }): StoreAnswer {
    const store = this.meetings.get(meetingId)?.get(storeKey(request));
    const wanted = request.get_keys.map((k) => k.store_key);
    const items = [...(store?.values() ?? [])].filter((item) => wanted.length === 0 || wanted.includes(item.store_key));
    return { plugin_id: request.plugin_id, store_name: request.store_name, store_items: items };
  }

  /** Inserts or deletes keys, or deletes the store; answers with the items that changed. */
  change(
    meetingId: string,
    peerId: string,
    event: StoreChange,
    request: StoreRequest & { insert_keys?: StoreKeys[]; delete_keys?: StoreKeys[] },
    timestamp: string,
  ): StoreAnswer {
    let stores = this.meetings.get(meetingId);
    if (!stores) this.meetings.set(meetingId, (stores = new Map()));
    const key = storeKey(request);
    let store = stores.get(key);
    let changed: StoreItem[] = [];
    if (event === PLUGIN.storeInsertKeys) {
      if (!store) {
        if (stores.size >= MAX_STORES_PER_MEETING) throw new Unserved(`A meeting keeps at most ${MAX_STORES_PER_MEETING} stores`);
        stores.set(key, (store = new Map()));
      }
      for (const k of request.insert_keys ?? []) {
        if (!store.has(k.store_key) && store.size >= MAX_KEYS_PER_STORE) throw new Unserved(`A store keeps at most ${MAX_KEYS_PER_STORE} keys`);
        const item = { timestamp, peer_id: peerId, store_key: k.store_key, payload: k.payload ?? new Uint8Array() };
        store.set(k.store_key, item);
        changed.push(item);
      }
    } else if (event === PLUGIN.storeDeleteKeys) {
      for (const k of request.delete_keys ?? []) {
        if (store?.delete(k.store_key)) changed.push({ timestamp, peer_id: peerId, store_key: k.store_key, payload: new Uint8Array() });
      }
    } else {
      changed = [...(store?.values() ?? [])];
      stores.delete(key);
    }
    return { plugin_id: request.plugin_id, store_name: request.store_name, store_items: changed };
  }

  /** The meeting's room emptied: its stores go with it. */
  forget(meetingId: string): void {
    this.meetings.delete(meetingId);
  }

  clear(): void {
    this.meetings.clear();
  }
}

/** The stores as a feature of the rooms: a page reads its own answer; a change is told to every page of the meeting. */
export class PluginStoresFeature implements RoomFeature {
  private readonly stores = new PluginStores();
  readonly handlers: ReadonlyArray<readonly [number, Handler]> = [
    [PLUGIN.getPlugins, (p, id) => p.send(PLUGIN.getPlugins, id, 'socket.plugin.EnablePluginsResponse', { plugins: [] })],
    [PLUGIN.storeGetKeys, (p, id, b) => this.read(p, id, b)],
    [PLUGIN.storeInsertKeys, (p, id, b) => this.change(p, id, b, PLUGIN.storeInsertKeys, 'socket.plugin.PluginStoreInsertKeysRequest')],
    [PLUGIN.storeDeleteKeys, (p, id, b) => this.change(p, id, b, PLUGIN.storeDeleteKeys, 'socket.plugin.PluginStoreDeleteKeysRequest')],
    [PLUGIN.storeDelete, (p, id, b) => this.change(p, id, b, PLUGIN.storeDelete, 'socket.plugin.PluginStoreDeleteRequest')],
  ];

  constructor(private readonly state: RoomState) {}

  onRoomEmpty(meetingId: string): void {
    this.stores.forget(meetingId);
  }

  onReset(): void {
    this.stores.clear();
  }

  private read(peer: Peer, id: string, payload: Uint8Array): void {
    peer.send(
      PLUGIN.storeGetKeys,
      id,
      'socket.plugin.PluginStoreResponse',
      this.stores.read(peer.meetingId, decodeAs('socket.plugin.PluginStoreGetKeysRequest', payload)),
    );
  }

  /** The SDK ignores its own change when told of it; the page that made it hears it as its answer. */
  private change(peer: Peer, id: string, payload: Uint8Array, event: StoreChange, type: string): void {
    const answer = this.stores.change(peer.meetingId, peer.peerId, event, decodeAs(type, payload), new Date(this.state.deps.clock.now()).toISOString());
    for (const other of this.state.pages(peer.meetingId))
      if (!other.gone) other.send(event, other === peer ? id : this.state.newId(), 'socket.plugin.PluginStoreResponse', answer);
  }
}

function storeKey(r: StoreRequest): string {
  return `${r.plugin_id}\u0000${r.store_name}`;
}
