// A small synchronous bus. Domain code publishes; the simulator, the webhook dispatcher and
// anything else subscribe. Event types live with the domain (src/domain/events.ts); the bus is
// generic so that core depends on nothing in the project.

export type Listener<E> = (event: E) => void;

export class EventBus<E extends { type: string }> {
  private listeners: Listener<E>[] = [];

  subscribe(listener: Listener<E>): () => void {
    this.listeners.push(listener);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  publish(event: E): void {
    for (const listener of this.listeners) listener(event);
  }
}
