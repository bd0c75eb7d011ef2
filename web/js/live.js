// Following a game live: its WebSocket pushes the state on connect and after
// every change (docs/api.md). While no socket is open the page polls, and it
// tries the socket again after 0.5, 1, 2, 4 … 15 s; a browser without
// WebSocket only polls.
import { held, socketUrl } from './api.js';

const POLL_MS = 400;

/**
 * Follows game `id`. Handlers: state(game) for each pushed state, deleted() when
 * the game is deleted, poll() every 400 ms while there is no socket, mode(how)
 * with 'socket' or 'polling', presence(colours) with the seats connected now
 * (the socket gives the seats this page holds: {"action": "auth"}). Answers {stop(), latest()}: stop ends it all;
 * latest is the newest state pushed since the socket opened, or null.
 */
export function follow(id, handlers) {
  let stopped = false;
  let sock = null;
  let pushed = null;
  let pollTimer = null;
  let retryTimer = null;
  let retries = 0;

  function startPolling() {
    handlers.mode('polling');
    if (!pollTimer) pollTimer = setInterval(handlers.poll, POLL_MS);
  }
  function stopPolling() {
    if (pollTimer) { clearInterval(pollTimer); pollTimer = null; }
  }
  function onMessage(ev) {
    let m;
    try { m = JSON.parse(ev.data); } catch (_) { return; }
    if (m.type === 'state' && m.game) {
      pushed = m.game;
      handlers.state(m.game);
    } else if (m.type === 'chat' && m.line && handlers.chat) {
      handlers.chat(m.line);
    } else if (m.type === 'presence' && handlers.presence) {
      handlers.presence(m.connected || []);
    } else if (m.type === 'deleted') {
      stop();
      handlers.deleted();
    }
  }
  function connect() {
    retryTimer = null;
    if (stopped) return;
    let s;
    try { s = new WebSocket(socketUrl(id)); } catch (_) { startPolling(); return; }
    sock = s;
    s.onopen = () => {
      retries = 0; stopPolling(); handlers.mode('socket');
      for (const token of Object.values(held(id).seats)) s.send(JSON.stringify({ action: 'auth', token }));
    };
    s.onmessage = onMessage;
    s.onclose = () => {
      if (sock !== s) return;
      sock = null;
      pushed = null;
      if (stopped) return;
      startPolling();
      retryTimer = setTimeout(connect, Math.min(15000, 500 * 2 ** retries));
      retries++;
    };
  }
  function stop() {
    stopped = true;
    stopPolling();
    if (retryTimer) clearTimeout(retryTimer);
    if (sock) { const s = sock; sock = null; s.close(); }
  }

  if (typeof WebSocket === 'function') connect(); else startPolling();
  return { stop, latest: () => pushed };
}
