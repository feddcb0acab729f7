// The table's sounds, made with Web Audio (no files): a card laid on the
// pile, a card drawn, and a chime when it is your turn. M turns them off;
// the choice is remembered in this browser.

const KEY = "fairdeal:sound";
let context = null;
let enabled = localStorage.getItem(KEY) !== "off";

export function soundOn() {
  return enabled;
}

export function setSound(on) {
  enabled = on;
  localStorage.setItem(KEY, on ? "on" : "off");
}

function audio() {
  if (!enabled) return null;
  // Before the person has touched the page a browser keeps it silent (and complains): skip.
  if (navigator.userActivation && !navigator.userActivation.hasBeenActive) return null;
  const Context = globalThis.AudioContext ?? globalThis.webkitAudioContext;
  if (!Context) return null;
  // A browser lets a page make sound only after the person touched it: the
  // first call comes from a click or a key, later ones reuse the context.
  context ??= new Context();
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

/** A short burst of filtered noise: the snap of a card on the felt. */
function snap(ctx, { at = 0, frequency = 1800, q = 0.9, length = 0.09, volume = 0.5 }) {
  const frames = Math.floor(ctx.sampleRate * length);
  const buffer = ctx.createBuffer(1, frames, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / frames) ** 3;
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = frequency;
  filter.Q.value = q;
  const gain = ctx.createGain();
  gain.gain.value = volume;
  source.connect(filter).connect(gain).connect(ctx.destination);
  source.start(ctx.currentTime + at);
}

function tone(ctx, { at = 0, frequency, length = 0.35, volume = 0.18, type = "sine" }) {
  const osc = ctx.createOscillator();
  osc.type = type;
  osc.frequency.value = frequency;
  const gain = ctx.createGain();
  const t = ctx.currentTime + at;
  gain.gain.setValueAtTime(0.0001, t);
  gain.gain.exponentialRampToValueAtTime(volume, t + 0.015);
  gain.gain.exponentialRampToValueAtTime(0.0001, t + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(t);
  osc.stop(t + length + 0.05);
}

export const sounds = {
  play() {
    const ctx = audio();
    if (ctx) snap(ctx, { frequency: 1400, length: 0.08, volume: 0.7 });
  },
  draw() {
    const ctx = audio();
    if (ctx) snap(ctx, { frequency: 3200, q: 0.5, length: 0.16, volume: 0.35 });
  },
  turn() {
    const ctx = audio();
    if (!ctx) return;
    tone(ctx, { frequency: 659.3 });
    tone(ctx, { at: 0.12, frequency: 987.8 });
  },
  win() {
    const ctx = audio();
    if (!ctx) return;
    [523.3, 659.3, 784, 1046.5].forEach((f, i) => tone(ctx, { at: i * 0.11, frequency: f, length: 0.5 }));
  },
};
