// Writes the two notification sounds of spec section 9 ("one for trade started (receiver),
// another for everything else") as small WAV files under public/sounds/, synthesized here so no
// audio is downloaded or licensed: `node scripts/notification-sounds.ts`. The files are committed.
import { mkdirSync, writeFileSync } from 'node:fs';

const RATE = 22_050;

/** Sine notes with a soft attack and an exponential fade, mixed into 16-bit mono PCM. */
function render(notes: { hz: number; start: number; length: number }[], seconds: number): Buffer {
  const samples = new Float64Array(Math.ceil(seconds * RATE));
  for (const { hz, start, length } of notes) {
    const from = Math.floor(start * RATE);
    for (let i = 0; i < length * RATE && from + i < samples.length; i++) {
      const t = i / RATE;
      const envelope = Math.min(1, t / 0.008) * Math.exp(-t * (5 / length));
      // A touch of the octave makes it a chime rather than a beep.
      const tone = Math.sin(2 * Math.PI * hz * t) + 0.25 * Math.sin(4 * Math.PI * hz * t);
      samples[from + i] = (samples[from + i] ?? 0) + 0.35 * envelope * tone;
    }
  }
  const data = Buffer.alloc(samples.length * 2);
  for (const [i, s] of samples.entries()) data.writeInt16LE(Math.round(Math.max(-1, Math.min(1, s)) * 32_767), i * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(RATE, 24);
  header.writeUInt32LE(RATE * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

const dir = new URL('../public/sounds/', import.meta.url);
mkdirSync(dir, { recursive: true });
// Trade started: a rising three-note chime (C6, E6, G6), it asks for attention.
writeFileSync(
  new URL('trade-started.wav', dir),
  render(
    [
      { hz: 1046.5, start: 0, length: 0.25 },
      { hz: 1318.5, start: 0.11, length: 0.25 },
      { hz: 1568, start: 0.22, length: 0.35 },
    ],
    0.6,
  ),
);
// Everything else: one soft ping (A5).
writeFileSync(new URL('notification.wav', dir), render([{ hz: 880, start: 0, length: 0.3 }], 0.32));
console.log('public/sounds/trade-started.wav, public/sounds/notification.wav written');
