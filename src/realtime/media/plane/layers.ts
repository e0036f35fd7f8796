// Which simulcast layer of a track a receiver takes: the one it prefers when the publisher sends
// it, else the best one below it, else the best there is. A viewer's copy (consumer.ts) and the
// recorder (recorder/track-tap.ts) choose alike.

/** The SDK's layer names, best first: full, half and quarter resolution. */
export const LAYER_ORDER = ['f', 'h', 'q'];

/** `layers`: the layers seen so far ('' for a track sent as one stream). */
export function chooseLayer(layers: ReadonlySet<string>, preferred: string): string {
  if (layers.size === 0 || layers.has(preferred)) return preferred;
  if (layers.has('')) return '';
  const from = Math.max(0, LAYER_ORDER.indexOf(preferred));
  return LAYER_ORDER.slice(from).find((l) => layers.has(l)) ?? LAYER_ORDER.find((l) => layers.has(l)) ?? [...layers][0]!;
}
