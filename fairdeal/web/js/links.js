// A table's seat links, kept for the host in this browser (a minimal stand-in: the lead keeps the
// help-links engineer's fuller module of the same name and exports at merge).

/** The link that seats a person: /table/ID#seat=N&token=T (the host's also carries &host=H). */
export function seatLink(gameId, seat, token, host = null) {
  const fragment = new URLSearchParams({ seat: String(seat), token });
  if (host) fragment.set("host", host);
  return `${location.origin}/table/${encodeURIComponent(gameId)}#${fragment}`;
}

/** Keep every human seat's link of a table just made (the answer of POST /games or /again). */
export function keepLinks(created, { rules = null, title = null } = {}) {
  const seats = created.seats
    .filter((s) => s.join_token)
    .map((s) => ({ seat: s.seat, name: s.name, url: seatLink(created.game_id, s.seat, s.join_token) }));
  const kept = { game_id: created.game_id, rules, title, when: new Date().toISOString(), host_token: created.host_token, seats };
  try {
    localStorage.setItem(`fairdeal:links:${created.game_id}`, JSON.stringify(kept));
  } catch {
    // A browser that keeps nothing (private mode, full storage): the links are still on the page.
  }
  return kept;
}

/** The links kept for a table, or null. */
export function keptLinks(gameId) {
  try {
    return JSON.parse(localStorage.getItem(`fairdeal:links:${gameId}`) ?? "null");
  } catch {
    return null;
  }
}
