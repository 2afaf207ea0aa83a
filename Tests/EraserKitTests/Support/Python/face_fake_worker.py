#!/usr/bin/env python3
"""A stand-in for face_worker.py that speaks its protocol without dlib, for the embedder's process
tests (restarts, time limits, start-up failures). Needs only python3.

FAKE_FACE_WORKER_MODE (environment):
  unavailable   the first line says {"ready": false, ...} with message "fake: dlib is missing"
  die           writes "fake start-up failure" to standard error and exits 1 before any line
  (unset)       ready; then answers by the request path's file name:
    crash             exits 7 without answering (every time)
    crash-once        exits 7 the first time (leaves PATH.crashed behind), answers after that
    hang              sleeps 60 s
    slow              sleeps 0.3 s, then answers
    unreadable        {"error": {"code": "unreadable_image", "message": "fake: unreadable"}}
    malformed         a face with a two-number box
    anything else     one face, box [1, 2, 3, 4], descriptor [pid, 0, 0, ...] (128 numbers)
"""

import json
import os
import sys
import time


def emit(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


mode = os.environ.get("FAKE_FACE_WORKER_MODE", "")
if mode == "unavailable":
    emit({"ready": False, "error": {"code": "unavailable", "message": "fake: dlib is missing"}})
    sys.exit(3)
if mode == "die":
    sys.stderr.write("fake start-up failure\n")
    sys.exit(1)
emit({"ready": True, "dlib": "fake", "python": "3", "models": "none"})

for line in sys.stdin:
    request = json.loads(line)
    identifier, path = request["id"], request["path"]
    name = os.path.basename(path)
    if name == "crash":
        os._exit(7)
    if name == "crash-once":
        if not os.path.exists(path + ".crashed"):
            open(path + ".crashed", "w").close()
            os._exit(7)
    if name == "hang":
        time.sleep(60)
    if name == "slow":
        time.sleep(0.3)
    if name == "unreadable":
        emit({"id": identifier, "error": {"code": "unreadable_image", "message": "fake: unreadable"}})
    elif name == "malformed":
        emit({"id": identifier, "faces": [{"box": [1, 2], "score": 1.0, "descriptor": [0.0] * 128}]})
    else:
        descriptor = [float(os.getpid())] + [0.0] * 127
        emit({"id": identifier, "width": 10, "height": 10,
              "faces": [{"box": [1, 2, 3, 4], "score": 1.0, "descriptor": descriptor}]})
