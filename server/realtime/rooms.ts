import type { BusEvent } from './bus.ts';
import type { Client, HubParts, Room } from './hub-parts.ts';

// Channel membership: the hub holds one bus subscription per channel in use and fans each event
// out to the channel's sockets, serialized once.

export function fanOut(rooms: ReadonlyMap<string, Room>, event: BusEvent, channel: string): void {
  const room = rooms.get(channel);
  if (!room) return;
  const frame = JSON.stringify({ type: 'event', channel, event });
  for (const member of room.members) {
    if (member.socket.readyState === member.socket.OPEN) member.socket.send(frame);
  }
}

export function join({ bus, rooms }: Pick<HubParts, 'bus' | 'rooms'>, client: Client, channel: string): void {
  let room = rooms.get(channel);
  if (!room) {
    // `everywhere`: the room's sockets hear what any process publishes on the channel.
    const unsubscribe = bus.subscribe(channel, (event, ch) => fanOut(rooms, event, ch), 'everywhere');
    room = { members: new Set(), unsubscribe };
    rooms.set(channel, room);
  }
  room.members.add(client);
  client.channels.add(channel);
}

export function leave({ rooms }: Pick<HubParts, 'rooms'>, client: Client, channel: string): void {
  const room = rooms.get(channel);
  client.channels.delete(channel);
  client.viaKey.delete(channel);
  if (!room) return;
  room.members.delete(client);
  if (room.members.size === 0) {
    room.unsubscribe();
    rooms.delete(channel);
  }
}
