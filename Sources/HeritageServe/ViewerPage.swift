/// The viewer at `/`: the MJPEG stream with the latest anchors drawn over it on a canvas, and
/// the run's fps, tier and per-stage latency. One page, no build step, nothing from elsewhere:
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
  #overlay { position: absolute; left: 0; top: 0; width: 100%; height: 100%; }
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
    <img id="video" src="/stream.mjpg" alt="composited video">
    <canvas id="overlay"></canvas>
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
const canvas = document.getElementById("overlay");
const ctx = canvas.getContext("2d");
const state = document.getElementById("state");
let latest = null;

function draw() {
  const a = latest;
  if (!a) return;
  if (canvas.width !== a.width || canvas.height !== a.height) { canvas.width = a.width; canvas.height = a.height; }
  ctx.clearRect(0, 0, canvas.width, canvas.height);
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

function connect() {
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/anchors");
  ws.onopen = () => { state.textContent = "live"; };
  ws.onmessage = (e) => { latest = JSON.parse(e.data); requestAnimationFrame(draw); };
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
poll();
</script>
</body>
</html>
"""#
}
