"""Load and abuse: 16 WebSocket and 4 MJPEG clients, a client that stops reading, and hostile
requests during `process --realtime --serve`, against a run without network outputs. Prints the
frame path's latency for both and checks that every hostile request got an error, that the run
finished and that memory stayed flat. Usage: [LOAD_REPEATS=2] [LOAD_CHRT=1] [LOAD_MJPEG=4] [LOAD_SERVE_ARGS=...] load.py BINARY SAMPLE WORKDIR [FRAMES]"""
import asyncio
import json
import os
import socket
import sys
import threading
import time

import websockets

from common import fail, finish, rss_kb, start, viewer_port

binary, sample, work = sys.argv[1:4]
frames = sys.argv[4] if len(sys.argv) > 4 else "600"
if os.environ.get("LOAD_CHRT"):
    # The frame thread at real-time priority (README, bench): other programs on a shared machine
    # then stay out of the comparison; the server's threads put themselves back at nice 10.
    binary = ["chrt", "-f", "10", binary]
base = ["process", sample, "--realtime", "--loop", "--frames", frames]
MJPEG_CLIENTS = int(os.environ.get("LOAD_MJPEG", "4"))
HOSTILE = [
    b"GET /../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET /%2e%2e/%2e%2e/etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET /..%2f..%2fetc%2fpasswd HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET /stream.mjpg/../../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n",
    b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 not http\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 100_000 + b"\r\n\r\n",
    b"GET /" + b"a" * 20_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
    b"POST /anchors HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello",
]


def report(path):
    run = json.load(open(path))["runs"][0]
    return (run["total_ms"], run["stages_ms"].get("sinks", {}), run["peak_rss_mb"], run["dropped"], run["frames"],
            run["process_cpu_ms_per_frame"])


def status_of(port, request):
    """The response's status, 0 for none; None when the server is gone (the run ended)."""
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
    except ConnectionRefusedError:
        return None
    try:
        s.sendall(request)
        head = s.recv(200)
    except OSError as e:
        head = f"<{e}>".encode()
    finally:
        s.close()
    parts = head.split(b" ")
    return int(parts[1]) if head.startswith(b"HTTP/1.1") and len(parts) > 1 and parts[1].isdigit() else 0


def mjpeg_reader(port, stop, counts, i):
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(b"GET /stream.mjpg HTTP/1.1\r\nHost: x\r\n\r\n")
    while not stop.is_set():
        try:
            data = s.recv(65536)
        except OSError:
            break
        if not data:
            break
        counts[i] += data.count(b"--heritagelensframe")
    s.close()


async def ws_client(port, stop, counts, i):
    async with websockets.connect(f"ws://127.0.0.1:{port}/anchors", max_size=2**20) as ws:
        while not stop.is_set():
            try:
                await asyncio.wait_for(ws.recv(), 1)
                counts[i] += 1
            except asyncio.TimeoutError:
                pass
            except websockets.ConnectionClosed:
                break


def ws_clients(port, stop, counts):
    async def main():
        await asyncio.gather(*(ws_client(port, stop, counts, i) for i in range(16)))
    asyncio.run(main())


def quiet_run(n):
    path = os.path.join(work, f"load-quiet-{n}.json")
    proc = start(binary, base + ["--report", path], os.path.join(work, f"load-quiet-{n}.log"))
    if finish(proc, 600) != 0:
        fail("the run without clients failed")
    return report(path)


def loaded_run(n):
    """The same run serving 16 + 4 clients, one stalled client and hostile requests."""
    path = os.path.join(work, f"load-clients-{n}.json")
    log = os.path.join(work, f"load-clients-{n}.log")
    proc = start(binary, base + ["--serve", "0", "--report", path] + os.environ.get("LOAD_SERVE_ARGS", "").split(), log)
    port = viewer_port(proc, log)
    stop = threading.Event()
    ws_counts, mjpeg_counts = [0] * 16, [0] * MJPEG_CLIENTS
    threads = [threading.Thread(target=ws_clients, args=(port, stop, ws_counts))]
    threads += [threading.Thread(target=mjpeg_reader, args=(port, stop, mjpeg_counts, i)) for i in range(MJPEG_CLIENTS)]
    for t in threads:
        t.start()
    stalled = socket.create_connection(("127.0.0.1", port))
    stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    if MJPEG_CLIENTS:
        stalled.sendall(b"GET /stream.mjpg HTTP/1.1\r\nHost: x\r\n\r\n")
    rss, statuses = [], []
    while proc.poll() is None:
        rss.append(rss_kb(proc.pid))
        for request in HOSTILE:
            status = status_of(port, request)
            if status is not None:
                statuses.append(status)
        time.sleep(1)
    stop.set()
    for t in threads:
        t.join(10)
    stalled.close()
    if proc.returncode != 0:
        fail(f"the loaded run exited {proc.returncode}; see {log}")
    print(f"run {n}: WebSocket messages per client {min(ws_counts)}-{max(ws_counts)}, MJPEG frames per client "
          f"{min(mjpeg_counts, default=0)}-{max(mjpeg_counts, default=0)}; RSS {rss[len(rss) // 3] / 1024:.0f} MB a third in, "
          f"{rss[-1] / 1024:.0f} MB at the end; hostile requests {len(statuses)}, statuses {sorted(set(statuses))}")
    errors = [s for s in statuses if not 400 <= s < 500]
    if errors:
        fail(f"{len(errors)} hostile requests got no 4xx answer: {sorted(set(errors))}")
    if min(ws_counts) == 0 or min(mjpeg_counts, default=1) == 0:
        fail("a client got nothing")
    if rss[-1] - rss[len(rss) // 3] > 20 * 1024:
        fail("memory grew by more than 20 MB under load")
    return report(path)


# The clients stand in for other machines: here they share the two cores, so they run at the
# lowest priority (heritage-lens is started before, at normal priority) and what the frame path
# pays is the server's own cost. Runs alternate, as other programs' load on the machine drifts.
repeats = int(os.environ.get("LOAD_REPEATS", "2"))
label = f"--serve, 16 WS + {MJPEG_CLIENTS} MJPEG + stalled + hostile"
rows = []
for n in range(repeats):
    rows.append(("no network outputs", quiet_run(n)))
    if n == 0:
        os.nice(19)
    rows.append((label, loaded_run(n)))

print("| run | frames | dropped | total p50 ms | total p99 ms | sinks p99 ms | process CPU ms/frame | peak RSS MB |")
print("| --- | --- | --- | --- | --- | --- | --- | --- |")
for name, (total, sinks, peak, dropped, n, cpu) in rows:
    print(f"| {name} | {n} | {dropped} | {total['p50']:.2f} | {total['p99']:.2f} | {sinks.get('p99', 0):.2f} | "
          f"{cpu:.2f} | {peak:.0f} |")


def median(values):
    values = sorted(values)
    return values[len(values) // 2] if len(values) % 2 else (values[len(values) // 2 - 1] + values[len(values) // 2]) / 2


quiet_p99 = median([r[1][0]["p99"] for r in rows if r[0].startswith("no")])
loaded_p99 = median([r[1][0]["p99"] for r in rows if not r[0].startswith("no")])
print(f"frame path p99, median of {repeats}: {quiet_p99:.2f} ms without clients, {loaded_p99:.2f} ms with "
      f"({loaded_p99 - quiet_p99:+.2f} ms)")
