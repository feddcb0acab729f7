// The service's JSON API, and its live updates (server-sent events) read with
// fetch so the seat's token travels in a header, never in a URL that a log
// could keep.

/** An answer other than 2xx: `status` and the server's `detail`. */
export class ApiError extends Error {
  constructor(status, detail) {
    super(typeof detail === "string" ? detail : JSON.stringify(detail));
    this.name = "ApiError";
    this.status = status;
    this.detail = detail;
  }
}

/** A JSON request; `token` goes in Authorization: Bearer. */
export async function request(method, path, { body, token } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: "no-store" });
  const type = response.headers.get("content-type") ?? "";
  const data = type.includes("json") ? await response.json().catch(() => null) : await response.text();
  if (!response.ok) {
    let detail = data?.detail ?? data ?? response.statusText;
    // FastAPI's validation errors are a list: say the first one plainly.
    if (Array.isArray(detail)) detail = detail.map((d) => d.msg ?? String(d)).join("; ");
    throw new ApiError(response.status, detail);
  }
  return data;
}

/**
 * One game seen by one seat (or a spectator when `seat` is null). `lang`, the page's language: the
 * server says in it what it writes for people (a card's why-not, a hand's reason, a refusal's detail).
 */
export class GameApi {
  constructor(gameId, { seat = null, token = null, host = null, lang = null } = {}) {
    this.gameId = gameId;
    this.seat = seat;
    this.token = token;
    this.host = host;
    this.base = `/games/${encodeURIComponent(gameId)}`;
    this.query = lang && lang !== "en" ? `?lang=${encodeURIComponent(lang)}` : "";
  }

  /** The seat's view, or the public state for a spectator. */
  view() {
    if (this.seat === null) return request("GET", `${this.base}${this.query}`);
    return request("GET", `${this.base}/seats/${this.seat}/view${this.query}`, { token: this.token });
  }

  commit(commitment) {
    return request("POST", `${this.base}/seats/${this.seat}/commit${this.query}`, { token: this.token, body: { commitment } });
  }

  reveal(seed) {
    return request("POST", `${this.base}/seats/${this.seat}/reveal${this.query}`, { token: this.token, body: { seed } });
  }

  /** {seq, move, card?, suit?} → {receipt, view} */
  move(seq, move) {
    return request("POST", `${this.base}/moves${this.query}`, { token: this.token, body: { seq, ...move } });
  }

  start() {
    return request("POST", `${this.base}/start${this.query}`, { token: this.host });
  }

  abandon() {
    return request("POST", `${this.base}/abandon${this.query}`, { token: this.host });
  }

  /** Between hands: this seat is ready for the next deal → the seat's view. */
  ready() {
    return request("POST", `${this.base}/ready${this.query}`, { token: this.token });
  }

  /** The host plays again once the game is over: a new table like this one → its ids and tokens (as POST /games). */
  again() {
    return request("POST", `${this.base}/again`, { token: this.host });
  }

  async record() {
    const response = await fetch(`${this.base}/record`, { cache: "no-store" });
    if (!response.ok) throw new ApiError(response.status, await response.text());
    return response.text();
  }

  /**
   * Follow the game live: onEvent({event, data, id}) for every server-sent
   * event; reconnects by itself (resuming after the last line seen) until
   * close() is called or the game's stream ends for good. A network that goes
   * away, or a stream silent for longer than the server's keepalives allow,
   * makes it reconnect at once rather than wait on a dead connection.
   */
  follow(onEvent, { onStatus = () => {}, from = null } = {}) {
    let closed = false;
    let controller = null;
    let next = from; // the first seq still to receive
    let failures = 0;
    let finished = false;
    let heard = Date.now();
    let wake = () => {};

    const restart = () => {
      onStatus("reconnecting");
      controller?.abort();
      wake();
    };
    const offline = () => restart();
    const online = () => wake();
    // The server says something at least every 15 s; 40 s of silence is a dead connection.
    const watchdog = setInterval(() => Date.now() - heard > 40_000 && restart(), 5_000);
    addEventListener("offline", offline);
    addEventListener("online", online);

    const run = async () => {
      while (!closed && !finished) {
        controller = new AbortController();
        const params = new URLSearchParams(this.query);
        if (next !== null) params.set("from", String(next));
        const query = params.size ? `?${params}` : "";
        try {
          const headers = { Accept: "text/event-stream" };
          if (this.token) headers.Authorization = `Bearer ${this.token}`;
          const response = await fetch(`${this.base}/events${query}`, { headers, signal: controller.signal, cache: "no-store" });
          if (!response.ok || !response.body) throw new ApiError(response.status, "live updates unavailable");
          onStatus("live");
          failures = 0;
          heard = Date.now();
          await readEvents(
            response.body,
            (event) => {
              if (event.event === "line" && event.id !== null) next = Number(event.id) + 1;
              if (event.event === "line" && event.data.includes('"type":"reveal"')) finished = true;
              if (event.event === "view" || event.event === "state") {
                const state = JSON.parse(event.data);
                // A finished, revealed game has nothing more to say: the server closes the stream.
                if ((state.status === "over" || state.status === "abandoned") && state.server_seed) finished = true;
                onEvent({ ...event, parsed: state });
              } else {
                onEvent(event);
              }
            },
            () => (heard = Date.now()),
          );
        } catch (error) {
          if (closed) break;
          if (error instanceof ApiError && error.status === 404) break;
          if (error?.name !== "AbortError") failures += 1;
          onStatus("reconnecting");
        }
        if (!closed && !finished) {
          await new Promise((resolve) => {
            wake = resolve;
            setTimeout(resolve, navigator.onLine === false ? 30_000 : Math.min(8000, 250 * 2 ** Math.min(failures, 5)));
          });
        }
      }
      clearInterval(watchdog);
      removeEventListener("offline", offline);
      removeEventListener("online", online);
      if (finished) onStatus("done");
    };
    run();
    return {
      close() {
        closed = true;
        controller?.abort();
        wake();
      },
    };
  }
}

/** Read a text/event-stream body, calling `onEvent({event, data, id})` for each event
 * and `onBytes()` whenever anything arrives (a keepalive too). */
async function readEvents(body, onEvent, onBytes = () => {}) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let event = { event: "message", data: [], id: null };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    onBytes();
    buffer += value;
    let cut;
    while ((cut = buffer.search(/\r?\n/)) >= 0) {
      const line = buffer.slice(0, cut);
      buffer = buffer.slice(cut + (buffer[cut] === "\r" ? 2 : 1));
      if (line === "") {
        if (event.data.length) onEvent({ event: event.event, data: event.data.join("\n"), id: event.id });
        event = { event: "message", data: [], id: null };
        continue;
      }
      if (line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value2 = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "event") event.event = value2;
      else if (field === "data") event.data.push(value2);
      else if (field === "id") event.id = value2;
    }
  }
}
