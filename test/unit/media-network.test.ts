// The addresses the pages are offered as ICE candidates, for each way the media plane can be bound:
// the announced address wins, a bound address is offered as it is, and a wildcard bind offers the
// machine's own addresses of that family (the interfaces are given here, as os.networkInterfaces()
// would answer on some machine), without the loopback and link-local ones, falling back to the
// loopback when the machine has nothing else.
import type { NetworkInterfaceInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import { candidateAddresses, plannedListening, portsOf } from '../../src/realtime/media/media-network.js';

function v4(address: string, internal = false): NetworkInterfaceInfo {
  return { address, netmask: '255.255.255.0', family: 'IPv4', mac: '02:00:00:00:00:01', internal, cidr: `${address}/24` };
}

function v6(address: string, internal = false): NetworkInterfaceInfo {
  return { address, netmask: 'ffff:ffff:ffff:ffff::', family: 'IPv6', mac: '02:00:00:00:00:01', internal, cidr: `${address}/64`, scopeid: 0 };
}

/** A laptop: its loopback, a Wi-Fi with an IPv4 and both kinds of IPv6, a link-local-only cable, a bridge for containers, and an address two interfaces share. */
const LAPTOP: NodeJS.Dict<NetworkInterfaceInfo[]> = {
  lo: [v4('127.0.0.1', true), v6('::1', true)],
  wlan0: [v4('192.168.1.23'), v6('fe80::1c2:3ff:fe4:5'), v6('2001:db8::23')],
  eth0: [v4('169.254.10.20'), v6('FE80::AB:CD')],
  docker0: [v4('172.17.0.1')],
  vpn0: [v4('192.168.1.23'), v6('fd00::7')],
  gone: undefined,
};

/** A machine with nothing but its loopback and link-local addresses (a container with no network, a laptop offline). */
const OFFLINE: NodeJS.Dict<NetworkInterfaceInfo[]> = {
  lo: [v4('127.0.0.1', true), v6('::1', true)],
  eth0: [v4('169.254.1.1'), v6('fe80::1')],
};

describe('the candidates offered to the pages', () => {
  it('are the announced address when there is one, whatever is bound (an IPv6 literal without its brackets)', () => {
    expect(candidateAddresses('0.0.0.0', '203.0.113.9', LAPTOP)).toEqual(['203.0.113.9']);
    expect(candidateAddresses('127.0.0.1', '[2001:db8::9]', LAPTOP)).toEqual(['2001:db8::9']);
    expect(candidateAddresses('::', 'host.example', LAPTOP)).toEqual(['host.example']);
  });

  it('are the bound address itself when it is not a wildcard', () => {
    expect(candidateAddresses('127.0.0.1', undefined, LAPTOP)).toEqual(['127.0.0.1']);
    expect(candidateAddresses('192.168.1.23', undefined, LAPTOP)).toEqual(['192.168.1.23']);
    expect(candidateAddresses('[::1]', undefined, LAPTOP)).toEqual(['::1']);
  });

  it("for 0.0.0.0: the machine's own IPv4 addresses, once each, in the interfaces' order; no loopback, no link-local, no IPv6", () => {
    expect(candidateAddresses('0.0.0.0', undefined, LAPTOP)).toEqual(['192.168.1.23', '172.17.0.1']);
  });

  it("for :: (with or without brackets): the machine's own addresses of both families; no loopback, no link-local (in either case)", () => {
    const both = ['192.168.1.23', '2001:db8::23', '172.17.0.1', 'fd00::7'];
    expect(candidateAddresses('::', undefined, LAPTOP)).toEqual(both);
    expect(candidateAddresses('[::]', undefined, LAPTOP)).toEqual(both);
  });

  it("fall back to the bind's loopback when the machine has no other address", () => {
    expect(candidateAddresses('0.0.0.0', undefined, OFFLINE)).toEqual(['127.0.0.1']);
    expect(candidateAddresses('::', undefined, OFFLINE)).toEqual(['::1']);
    expect(candidateAddresses('0.0.0.0', undefined, {})).toEqual(['127.0.0.1']);
  });

  it('are what the health answer plans before the plane opens: the announced one, or the bound one', () => {
    expect(plannedListening({ host: '127.0.0.1', ports: 0, announce: undefined })).toEqual({
      address: '127.0.0.1',
      candidates: ['127.0.0.1'],
      udp_port: null,
      udp_port_range: null,
      tcp_port: null,
    });
    expect(plannedListening({ host: '[::]', ports: { from: 40000, to: 40019 }, announce: '[2001:db8::9]' })).toEqual({
      address: '::',
      candidates: ['2001:db8::9'],
      udp_port: null,
      udp_port_range: { from: 40000, to: 40019 },
      tcp_port: 40000,
    });
  });
});

describe('the UDP ports of a placement', () => {
  it('are its one port, or every port of its range in order, both ends included', () => {
    expect(portsOf(4710)).toEqual([4710]);
    expect(portsOf({ from: 40000, to: 40003 })).toEqual([40000, 40001, 40002, 40003]);
    expect(portsOf({ from: 40000, to: 40000 })).toEqual([40000]);
  });
});
