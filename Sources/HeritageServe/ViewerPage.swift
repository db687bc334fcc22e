/// The viewer at `/`: the MJPEG stream drawn on a canvas with each frame's own anchors over it
/// (the parts carry their frame's index; the anchors arrive by WebSocket and wait for their
/// frame), and the run's fps, tier and per-stage latency. One page, no build step, nothing from elsewhere:
/// the script and styles are inline and everything it loads comes from this server.
enum ViewerPage {
    static let html = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>HeritageLens live</title>
<style>
  body { margin: 0; background: #111; color: #ddd; font: 14px/1.4 system-ui, sans-serif; }
  main { display: flex; flex-wrap: wrap; gap: 12px; padding: 12px; }
  #view { position: relative; flex: 1 1 640px; max-width: 960px; }
  #video { display: block; width: 100%; background: #000; }
  #stats { flex: 0 0 260px; }
  h1 { font-size: 16px; margin: 0 0 8px; }
  .row { display: flex; justify-content: space-between; }
  .bar { height: 8px; background: #4c4; margin: 2px 0 6px; }
  .bar.slow { background: #e55; }
  #state { color: #999; }
</style>
</head>
<body>
<main>
  <div id="view">
    <canvas id="video" width="640" height="480"></canvas>
  </div>
  <div id="stats">
    <h1>HeritageLens</h1>
    <div class="row"><span>frame</span><span id="frame">-</span></div>
    <div class="row"><span>fps</span><span id="fps">-</span></div>
    <div class="row"><span>tier</span><span id="tier">-</span></div>
    <div class="row"><span>end to end (p50 / p99)</span><span id="total">-</span></div>
    <div class="row"><span>faces / cards</span><span id="count">-</span></div>
    <h1 style="margin-top:12px">stages, ms (last)</h1>
    <div id="stages"></div>
    <p id="state">connecting…</p>
  </div>
</main>
<script>
"use strict";
const canvas = document.getElementById("video");
const ctx = canvas.getContext("2d");
const state = document.getElementById("state");
// Anchors by frame index, kept until their video frame arrives (the stream runs at a lower rate);
// anchors that come after their frame are drawn when they arrive.
const recent = new Map();
let shownFrame = -1;

function drawAnchors(a) {
  ctx.lineWidth = 2;
  ctx.font = "16px sans-serif";
  for (const f of a.faces) {
    const [x, y, w, h] = f.bbox;
    ctx.strokeStyle = "#0f0";
    ctx.strokeRect(x, y, w, h);
    ctx.fillStyle = "#ff0";
    for (const [px, py] of f.landmarks) ctx.fillRect(px - 1.5, py - 1.5, 3, 3);
    ctx.fillStyle = "#0f0";
    let label = "face " + f.id;
    if (f.pose && f.pose.euler_deg) label += "  yaw " + f.pose.euler_deg[1].toFixed(0) + "°";
    ctx.fillText(label, x, Math.max(16, y - 6));
  }
  for (const c of a.cards) {
    ctx.strokeStyle = "#0cf";
    ctx.beginPath();
    c.corners.forEach(([px, py], i) => i ? ctx.lineTo(px, py) : ctx.moveTo(px, py));
    ctx.closePath();
    ctx.stroke();
    ctx.fillStyle = "#0cf";
    ctx.fillText(c.id, c.corners[0][0], c.corners[0][1] - 6);
  }
  document.getElementById("frame").textContent = a.frame;
  document.getElementById("count").textContent = a.faces.length + " / " + a.cards.length;
}

function show(bitmap, frame) {
  if (canvas.width !== bitmap.width || canvas.height !== bitmap.height) {
    canvas.width = bitmap.width; canvas.height = bitmap.height;
  }
  ctx.drawImage(bitmap, 0, 0);
  bitmap.close();
  shownFrame = frame;
  const a = recent.get(frame);
  if (a) drawAnchors(a);
  for (const k of recent.keys()) { if (k > frame) break; recent.delete(k); }
}

function headEnd(b) {
  for (let i = 0; i + 3 < b.length; i++)
    if (b[i] === 13 && b[i + 1] === 10 && b[i + 2] === 13 && b[i + 3] === 10) return i;
  return -1;
}

// /stream.mjpg read part by part, so each frame's index (X-Frame) is known.
async function stream() {
  try {
    const reader = (await fetch("/stream.mjpg", { cache: "no-store" })).body.getReader();
    let buf = new Uint8Array(0);
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      const joined = new Uint8Array(buf.length + value.length);
      joined.set(buf); joined.set(value, buf.length); buf = joined;
      for (;;) {
        const end = headEnd(buf);
        if (end < 0) break;
        const head = new TextDecoder().decode(buf.subarray(0, end));
        const length = Number((/Content-Length: *(\d+)/i.exec(head) || [])[1]);
        const frame = Number((/X-Frame: *(\d+)/i.exec(head) || [])[1]);
        if (buf.length < end + 4 + length + 2) break;
        const jpeg = buf.slice(end + 4, end + 4 + length);
        buf = buf.slice(end + 4 + length + 2);
        show(await createImageBitmap(new Blob([jpeg], { type: "image/jpeg" })), frame);
      }
    }
  } catch (e) { state.textContent = "video: " + e; }
  setTimeout(stream, 2000);
}

function connect() {
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/anchors");
  ws.onopen = () => { state.textContent = "live"; };
  ws.onmessage = (e) => {
    const a = JSON.parse(e.data);
    if (a.frame === shownFrame) drawAnchors(a);
    recent.set(a.frame, a);
    if (recent.size > 300) recent.delete(recent.keys().next().value);
  };
  ws.onclose = () => { state.textContent = "disconnected; retrying…"; setTimeout(connect, 2000); };
}

async function poll() {
  try {
    const m = await (await fetch("/metrics.json", { cache: "no-store" })).json();
    if (m.frame !== undefined) {
      document.getElementById("fps").textContent = m.fps.toFixed(1);
      document.getElementById("tier").textContent = m.tier;
      document.getElementById("total").textContent = m.total_ms.p50.toFixed(1) + " / " + m.total_ms.p99.toFixed(1) + " ms";
      const scale = 200 / Math.max(8, m.total_ms.p99);
      const rows = Object.entries(m.stages_ms).filter(([n]) => n !== "sinks");
      document.getElementById("stages").innerHTML = rows.map(([n, s]) =>
        `<div class="row"><span>${n}</span><span>${s.last.toFixed(2)}</span></div>` +
        `<div class="bar${s.last > 8 ? " slow" : ""}" style="width:${Math.max(1, s.last * scale)}px"></div>`).join("");
    }
  } catch (e) { state.textContent = "no metrics: " + e; }
  setTimeout(poll, 500);
}

connect();
stream();
poll();
</script>
</body>
</html>
"""#
}
