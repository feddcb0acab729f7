// The top bar's tools that are no panel: the sound (on or off, M) and the record's download.

import { t } from "../i18n.js";
import { setSound, soundOn } from "../sound.js";
import { saveFile } from "../ui.js";
import { toast } from "./messages.js";
import { $, api, gameId } from "./state.js";

export function showSound() {
  $("sound").setAttribute("aria-pressed", String(soundOn()));
  $("sound").title = t(soundOn() ? "table.sound_is_on" : "table.sound_is_off");
}

export function toggleSound() {
  setSound(!soundOn());
  showSound();
  toast(t(soundOn() ? "table.sound_on" : "table.sound_off"), { ms: 1800 });
}

/** The public record as the server keeps it, byte for byte, saved as <game id>.jsonl: it holds no secret, so any time. */
export async function downloadRecord() {
  try {
    const response = await fetch(`${api.base}/record`, { cache: "no-store" });
    if (!response.ok) throw new Error(t("table.server_answered", { status: response.status }));
    saveFile(new Uint8Array(await response.arrayBuffer()), `${gameId}.jsonl`);
  } catch (error) {
    toast(t("table.download_failed", { reason: error.message }), { kind: "bad" });
  }
}
