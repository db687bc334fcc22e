"""OSC with a real receiver (python-osc): every message of a run, checked against the anchors file
of the same run. Usage: check_osc.py BINARY SAMPLE WORKDIR"""
import math
import os
import sys
import threading

from pythonosc.dispatcher import Dispatcher
from pythonosc.osc_server import ThreadingOSCUDPServer

from common import anchors_by_frame, fail, finish, start

binary, sample, work = sys.argv[1:4]
received = []
lock = threading.Lock()


def record(address, *args):
    with lock:
        received.append((address, args))


dispatcher = Dispatcher()
dispatcher.set_default_handler(record)
server = ThreadingOSCUDPServer(("127.0.0.1", 0), dispatcher)
port = server.server_address[1]
threading.Thread(target=server.serve_forever, daemon=True).start()

anchors_path = os.path.join(work, "osc-anchors.jsonl")
proc = start(binary, ["process", sample, "--realtime", "--frames", "150", "--osc", f"127.0.0.1:{port}",
                      "--anchors", anchors_path], os.path.join(work, "osc.log"))
if finish(proc) != 0:
    fail(f"heritage-lens exited {proc.returncode}; see {work}/osc.log")
import time
time.sleep(0.5)
server.shutdown()
anchors = anchors_by_frame(anchors_path)

# Group messages by frame: FaceOSC's bundle comes first, then /heritage/frame, faces, cards.
frames, faceosc, current = {}, [], None
for address, args in received:
    if address == "/heritage/frame":
        current = {"frame": args, "faceosc": faceosc, "faces": [], "landmarks": [], "cards": [], "stages": None}
        frames[args[0]] = current
        faceosc = []
    elif address.startswith("/heritage/"):
        key = {"/heritage/face": "faces", "/heritage/face/landmarks": "landmarks", "/heritage/card": "cards"}.get(address)
        if address == "/heritage/frame/stages":
            current["stages"] = args
        elif key:
            current[key].append(args)
        else:
            fail(f"unknown address {address}")
    else:
        faceosc.append((address, args))

if len(frames) < 0.5 * len(anchors):  # newest-first: a loaded machine skips some
    fail(f"{len(frames)} frames over OSC for {len(anchors)} anchors lines")


def close(a, b, tol):
    return abs(a - b) <= tol


checked_faces = checked_cards = 0
gestures = {}
for index, got in frames.items():
    line, a = anchors[index]
    f = got["frame"]
    if not (isinstance(f[0], int) and close(f[1], a["t"], 1e-3) and isinstance(f[2], str) and f[4] == len(a["faces"])
            and f[5] == len(a["cards"]) and (f[6], f[7]) == (a["width"], a["height"])):
        fail(f"frame {index}: /heritage/frame {f} against {line[:80]}")
    if got["stages"] is None or len(got["stages"]) % 2:
        fail(f"frame {index}: /heritage/frame/stages {got['stages']}")
    for face, args, lm in zip(a["faces"], got["faces"], got["landmarks"]):
        if args[0] != face["id"] or lm[0] != face["id"] or len(args) != 15 or len(lm) != 137:
            fail(f"frame {index}: face ids/shapes {args[:2]} {len(lm)}")
        if not all(close(x, y, 0.006) for x, y in zip(args[1:5], face["bbox"])):
            fail(f"frame {index}: bbox {args[1:5]} against {face['bbox']}")
        flat = [c for p in face["landmarks"] for c in p]
        if not all(close(x, y, 0.006) for x, y in zip(lm[1:], flat)):
            fail(f"frame {index}: landmarks differ from the anchors file")
        if "pose" in face:
            p = face["pose"]
            want = p["rvec"] + p["tvec"] + p["euler_deg"]
            # The file rounds radians to 5 decimals, metres to 4, degrees to 2.
            tolerance = [1e-5] * 3 + [1e-4] * 3 + [0.006] * 3
            if args[5] != 1 or not all(close(x, y, t) for x, y, t in zip(args[6:], want, tolerance)):
                fail(f"frame {index}: face pose {args[5:]} against {want}")
        checked_faces += 1
    for card, args in zip(a["cards"], got["cards"]):
        flat = [c for p in card["corners"] for c in p]
        if args[0] != card["id"] or not all(close(x, y, 0.006) for x, y in zip(args[1:9], flat)):
            fail(f"frame {index}: card {args[:3]} against {card['id']}")
        checked_cards += 1
    # FaceOSC: /found, and for a face the pose, gestures and 66 raw points in pixels.
    fo = dict(got["faceosc"])
    if not a["faces"]:
        if fo != {"/found": (0,)}:
            fail(f"frame {index}: FaceOSC without a face sent {list(fo)}")
        continue
    want = ["/found", "/pose/position", "/pose/scale", "/pose/orientation", "/gesture/mouth/width",
            "/gesture/mouth/height", "/gesture/eyebrow/left", "/gesture/eyebrow/right", "/gesture/eye/left",
            "/gesture/eye/right", "/gesture/jaw", "/gesture/nostrils", "/raw"]
    if [m[0] for m in got["faceosc"]] != want or fo["/found"] != (1,):
        fail(f"frame {index}: FaceOSC addresses {[m[0] for m in got['faceosc']]}")
    if not all(isinstance(v, float) for k in want[1:] for v in fo[k]):
        fail(f"frame {index}: FaceOSC arguments must be floats")
    points = a["faces"][0]["landmarks"]
    kept = [p for i, p in enumerate(points) if i not in (60, 64)]
    raw = fo["/raw"]
    if len(raw) != 132 or not all(close(raw[2 * i], p[0], 0.006) and close(raw[2 * i + 1], p[1], 0.006) for i, p in enumerate(kept)):
        fail(f"frame {index}: /raw is not the 66 points in pixels")
    cx = sum(p[0] for p in kept) / 66
    cy = sum(p[1] for p in kept) / 66
    if not (close(fo["/pose/position"][0], cx, 0.01) and close(fo["/pose/position"][1], cy, 0.01)):
        fail(f"frame {index}: /pose/position {fo['/pose/position']} against the centroid {cx:.2f},{cy:.2f}")
    eye = math.dist(points[36], points[45])
    scale = fo["/pose/scale"][0]
    if not 0.6 < eye / scale / 23.61 < 1.6:
        fail(f"frame {index}: /pose/scale {scale} for outer eye corners {eye:.1f} px apart")
    for k in want[4:12]:
        gestures.setdefault(k, []).append(fo[k][0])
    if not 6 < fo["/gesture/mouth/width"][0] < 25 or not 0 < fo["/gesture/eye/left"][0] < 8:
        fail(f"frame {index}: gestures out of FaceOSC's range: {fo['/gesture/mouth/width']} {fo['/gesture/eye/left']}")

if checked_faces == 0:
    fail("no face reached the receiver: the sample should show one")
median = {k.split("/", 2)[2]: sorted(v)[len(v) // 2] for k, v in gestures.items()}
print("osc: FaceOSC gestures, median over the run: " + ", ".join(f"{k} {v:.1f}" for k, v in median.items()))
print(f"osc: {len(received)} messages, {len(frames)}/{len(anchors)} frames, {checked_faces} faces and "
      f"{checked_cards} cards checked against the anchors file")
