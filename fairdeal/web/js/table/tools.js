// The top bar's tools that are no panel: the sound (on or off, M) and the record's download.

import { setSound, soundOn } from "../sound.js";
import { saveFile } from "../ui.js";
import { toast } from "./messages.js";
import { $, api, gameId } from "./state.js";

export function showSound() {
  $("sound").setAttribute("aria-pressed", String(soundOn()));
  $("sound").title = soundOn() ? "Sound is on: M turns it off" : "Sound is off: M turns it on";
}

export function toggleSound() {
  setSound(!soundOn());
  showSound();
  toast(soundOn() ? "Sound on (M turns it off)." : "Sound off (M turns it on).", { ms: 1800 });
}

/** The public record as the server keeps it, byte for byte, saved as <game id>.jsonl: it holds no secret, so any time. */
export async function downloadRecord() {
  try {
    const response = await fetch(`${api.base}/record`, { cache: "no-store" });
    if (!response.ok) throw new Error(`the server answered ${response.status}`);
    saveFile(new Uint8Array(await response.arrayBuffer()), `${gameId}.jsonl`);
  } catch (error) {
    toast(`The record could not be downloaded: ${error.message}`, { kind: "bad" });
  }
}
