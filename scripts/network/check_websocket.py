"""The anchors WebSocket with a real client (python websockets): every message must be the anchors
file's line for its frame, byte for byte. Usage: check_websocket.py BINARY SAMPLE WORKDIR"""
import asyncio
import json
import os
import sys

import websockets

from common import anchors_by_frame, fail, finish, start, viewer_port

binary, sample, work = sys.argv[1:4]
anchors_path = os.path.join(work, "ws-anchors.jsonl")
log = os.path.join(work, "ws.log")
proc = start(binary, ["process", sample, "--realtime", "--frames", "150", "--serve", "0", "--anchors", anchors_path], log)
port = viewer_port(proc, log)


async def client():
    messages = []
    async with websockets.connect(f"ws://127.0.0.1:{port}/anchors", max_size=2**20) as ws:
        try:
            async for m in ws:
                messages.append(m)
        except websockets.ConnectionClosed:
            pass
    return messages


async def main():
    return await asyncio.gather(client(), client())

results = asyncio.run(main())
if finish(proc) != 0:
    fail(f"heritage-lens exited {proc.returncode}; see {log}")
anchors = anchors_by_frame(anchors_path)
for n, messages in enumerate(results):
    if not messages:
        fail(f"client {n} got no messages")
    for m in messages:
        if not isinstance(m, str):
            fail("a binary message: the anchors are text")
        frame = json.loads(m)["frame"]
        if m != anchors[frame][0]:
            fail(f"frame {frame}: the message differs from the anchors line\n{m[:120]}\n{anchors[frame][0][:120]}")
    frames = [json.loads(m)["frame"] for m in messages]
    if frames != sorted(set(frames)):
        fail(f"client {n}: frames out of order or repeated")
    span = frames[-1] - frames[0] + 1
    if len(frames) < 0.5 * span:  # newest-first: a loaded machine skips some
        fail(f"client {n}: {len(frames)} messages over {span} frames")
print(f"websocket: {', '.join(str(len(m)) for m in results)} messages to two clients, each equal to its anchors line")
