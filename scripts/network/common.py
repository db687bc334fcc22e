"""Shared helpers for the network-output checks: start heritage-lens, find its port, read files."""
import json
import os
import re
import signal
import subprocess
import sys
import time


def start(binary, args, log_path):
    """Starts heritage-lens with stderr to log_path; returns the process."""
    log = open(log_path, "w")
    command = binary if isinstance(binary, list) else [binary]
    return subprocess.Popen(command + args, stdout=subprocess.DEVNULL, stderr=log)


def viewer_port(proc, log_path, timeout=60):
    """The port from the 'viewer: http://HOST:PORT/' line."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        with open(log_path) as f:
            m = re.search(r"viewer: http://[^ ]*:(\d+)/", f.read())
        if m:
            return int(m.group(1))
        if proc.poll() is not None:
            sys.exit(f"heritage-lens exited before serving; see {log_path}")
        time.sleep(0.1)
    sys.exit(f"no viewer line in {log_path} within {timeout} s")


def finish(proc, timeout=120):
    """Waits for a run with --frames to end by itself."""
    try:
        return proc.wait(timeout)
    except subprocess.TimeoutExpired:
        return stop(proc)


def stop(proc, timeout=30):
    """Interrupts a run (Ctrl-C: outputs are finalized)."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
    try:
        return proc.wait(timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        return proc.wait()


def anchors_by_frame(path):
    """The anchors file as {frame: (line text, parsed)}."""
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            a = json.loads(line)
            out[a["frame"]] = (line, a)
    return out


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def fail(message):
    print("FAIL:", message)
    sys.exit(1)
