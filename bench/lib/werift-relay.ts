// The media benchmark's reference (bench/lib/media.ts): werift's own receive-and-send loop with no
// emulator code, run as a process of its own so that its CPU is its own. Pages (plain
// RTCPeerConnections in the same Chromium, no SDK) publish camera and microphone as the SDK does
// with the emulator's presets (a 1280×720 camera, one VP8 stream, no simulcast; Opus) on one
// connection, and receive every other page's on a second one that the relay offers. The relay
// writes each packet it receives from a publisher straight to the sender of every subscriber (a
// copy each: werift's sender rewrites the header it is given and keeps it for retransmissions), and
// passes a subscriber's keyframe request to the publisher. That is the least an SFU on werift does
// per packet; the emulator also pauses, keeps sequence numbers continuous across simulcast layer
// switches, and counts and routes by mid.
//
//   node --import tsx bench/lib/werift-relay.ts   → prints {"url": "http://127.0.0.1:<port>/"} on stdout
//
// GET / is the page (window.publish(name), window.subscribe(name)); POST /publish {name, sdp} answers
// the page's offer; POST /subscribe {name} answers the relay's offer and which publisher each mid
// carries; POST /answer {name, sdp} takes the page's answer.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MediaStreamTrack, RTCPeerConnection, useOPUS, useRepairedRtpStreamId, useSdesMid, useSdesRTPStreamId, useVP8, type RTCRtpTransceiver } from 'werift';

interface Publisher {
  pc: RTCPeerConnection;
  video?: MediaStreamTrack;
  videoReceiver?: RTCRtpTransceiver;
  /** The SSRC of the video, from its packets (a keyframe request names it). */
  videoSsrc?: number;
  audio?: MediaStreamTrack;
}

const publishers = new Map<string, Publisher>();
const subscribers = new Map<string, RTCPeerConnection>();

function peerConnection(): RTCPeerConnection {
  return new RTCPeerConnection({
    iceLite: true,
    iceServers: [],
    bundlePolicy: 'max-bundle',
    codecs: { audio: [useOPUS()], video: [useVP8()] },
    headerExtensions: { video: [useSdesMid(), useSdesRTPStreamId(), useRepairedRtpStreamId()], audio: [useSdesMid()] },
  });
}

async function gathered(pc: RTCPeerConnection): Promise<void> {
  if (pc.iceGatheringState === 'complete') return;
  await new Promise<void>((resolve) => {
    const { unSubscribe } = pc.iceGatheringStateChange.subscribe((state) => {
      if (state === 'complete') {
        unSubscribe();
        resolve();
      }
    });
  });
}

async function publish(name: string, offer: string): Promise<string> {
  const pc = peerConnection();
  const publisher: Publisher = { pc };
  publishers.set(name, publisher);
  pc.onTransceiverAdded.subscribe((transceiver) => {
    transceiver.onTrack.subscribe((track) => {
      if (track.kind === 'audio') publisher.audio = track;
      else {
        publisher.video = track;
        publisher.videoReceiver = transceiver;
        track.onReceiveRtp.subscribe((packet) => (publisher.videoSsrc = packet.header.ssrc));
      }
    });
  });
  await pc.setRemoteDescription({ type: 'offer', sdp: offer });
  await pc.setLocalDescription(await pc.createAnswer());
  await gathered(pc);
  return pc.localDescription!.sdp;
}

async function subscribe(name: string): Promise<{ sdp: string; names: Record<string, string> }> {
  const pc = peerConnection();
  subscribers.set(name, pc);
  const sections: { transceiver: RTCRtpTransceiver; publisher: string }[] = [];
  for (const [other, publisher] of publishers) {
    if (other === name) continue;
    for (const kind of ['audio', 'video'] as const) {
      const source = publisher[kind];
      if (!source) throw new Error(`${other} publishes no ${kind} yet`);
      const out = new MediaStreamTrack({ kind });
      const transceiver = pc.addTransceiver(out, { direction: 'sendonly' });
      sections.push({ transceiver, publisher: other });
      source.onReceiveRtp.subscribe((packet) => out.writeRtp(packet.clone()));
      if (kind === 'video') {
        const ask = () => {
          const ssrc = publisher.videoSsrc;
          if (ssrc !== undefined) void publisher.videoReceiver?.receiver.sendRtcpPLI(ssrc).catch(() => undefined);
        };
        transceiver.sender.onPictureLossIndication.subscribe(ask);
        ask();
      }
    }
  }
  await pc.setLocalDescription(await pc.createOffer());
  await gathered(pc);
  const names = Object.fromEntries(sections.map((s) => [s.transceiver.mid ?? '', s.publisher]));
  return { sdp: pc.localDescription!.sdp, names };
}

async function answer(name: string, sdp: string): Promise<void> {
  const pc = subscribers.get(name);
  if (!pc) throw new Error(`no subscription of ${name}`);
  await pc.setRemoteDescription({ type: 'answer', sdp });
}

/** The page: what the SDK does with the camera and microphone, without the SDK. */
const PAGE = `<!doctype html><html><head><script>
const post = async (path, body) => (await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();
window.__pcs = [];
window.__names = {};
window.publish = async (name) => {
  const stream = await navigator.mediaDevices.getUserMedia({ audio: true, video: { width: { ideal: 1280 }, height: { ideal: 720 }, frameRate: { ideal: 30 } } });
  const pc = new RTCPeerConnection({ bundlePolicy: 'max-bundle' });
  window.__pcs.push(pc);
  pc.addTransceiver(stream.getAudioTracks()[0], { direction: 'sendonly' });
  pc.addTransceiver(stream.getVideoTracks()[0], { direction: 'sendonly' });
  await pc.setLocalDescription();
  const { sdp } = await post('/publish', { name, sdp: pc.localDescription.sdp });
  await pc.setRemoteDescription({ type: 'answer', sdp });
};
window.subscribe = async (name) => {
  const pc = new RTCPeerConnection({ bundlePolicy: 'max-bundle' });
  window.__pcs.push(pc);
  const { sdp, names } = await post('/subscribe', { name });
  await pc.setRemoteDescription({ type: 'offer', sdp });
  await pc.setLocalDescription();
  await post('/answer', { name, sdp: pc.localDescription.sdp });
  window.__names = names;
};
</script></head><body></body></html>`;

async function body(req: IncomingMessage): Promise<{ name: string; sdp: string }> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return JSON.parse(text) as { name: string; sdp: string };
}

const server = createServer((req, res) => {
  const reply = (status: number, value: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
  void (async () => {
    try {
      if (req.method === 'GET') return void res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
      const { name, sdp } = await body(req);
      if (req.url === '/publish') return reply(200, { sdp: await publish(name, sdp) });
      if (req.url === '/subscribe') return reply(200, await subscribe(name));
      if (req.url === '/answer') {
        await answer(name, sdp);
        return reply(200, {});
      }
      reply(404, { error: req.url });
    } catch (err) {
      reply(500, { error: (err as Error).message });
    }
  })();
});
server.listen(0, '127.0.0.1', () => {
  console.log(JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` }));
});
