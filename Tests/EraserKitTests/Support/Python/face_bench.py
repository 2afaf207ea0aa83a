#!/usr/bin/env python3
"""Throughput and memory of face_worker.py on this machine (a measurement, not a test).

    python3 face_bench.py [--workers 1,2] [--upsample 1] [--max-side 1280] [--rounds 2]

Builds 20 photos with face_fixtures.py (10 as built, 10 enlarged to a phone camera's 4032 px long
side as JPEG), starts N workers, spreads the photos over them (each worker one photo at a time,
as DlibWorkerFaceEmbedder does), and prints photos per minute, the start-up time and each
worker's peak resident memory (VmHWM). The CPU seconds per photo (the workers' own user + system
time) hold even on a busy machine; photos per minute on an idle one are about cores x 60 / that.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
WORKER = os.path.join(HERE, "..", "..", "..", "..", "Sources", "EraserKit", "Faces", "Worker", "face_worker.py")
BASES = ["astronaut.png", "astronaut_crop.jpg", "astronaut_flip.png", "astronaut_small.jpg", "astronaut_gray.png",
         "astronaut_exif6.jpg", "group.jpg", "hanks.png", "coffee.png", "chelsea.png"]


def build_photos(folder):
    subprocess.run([sys.executable, os.path.join(HERE, "face_fixtures.py"), folder], check=True, capture_output=True)
    from PIL import Image
    photos = []
    for name in BASES:
        path = os.path.join(folder, name)
        photos.append(path)
        image = Image.open(path).convert("RGB")
        factor = 4032 / max(image.size)
        big = image.resize((round(image.size[0] * factor), round(image.size[1] * factor)), Image.BICUBIC)
        big_path = os.path.join(folder, "phone_" + os.path.splitext(name)[0] + ".jpg")
        big.save(big_path, quality=90)
        photos.append(big_path)
    return photos


def peak_rss_kib(pid):
    with open("/proc/%d/status" % pid) as handle:
        for line in handle:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run(photos, workers, upsample, max_side, rounds):
    started = time.monotonic()
    processes = [subprocess.Popen([sys.executable, WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
                 for _ in range(workers)]
    for process in processes:
        hello = json.loads(process.stdout.readline())
        assert hello["ready"], hello
    startup = time.monotonic() - started
    queue = [photo for _ in range(rounds) for photo in photos]
    lock = threading.Lock()
    faces = [0]

    def serve(process):
        while True:
            with lock:
                if not queue:
                    return
                path = queue.pop()
            process.stdin.write(json.dumps({"id": 1, "path": path, "upsample": upsample, "max_side": max_side}) + "\n")
            process.stdin.flush()
            answer = json.loads(process.stdout.readline())
            assert "faces" in answer, answer
            with lock:
                faces[0] += len(answer["faces"])

    cpu_before = sum(cpu_seconds(process.pid) for process in processes)
    begun = time.monotonic()
    threads = [threading.Thread(target=serve, args=(process,)) for process in processes]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - begun
    cpu = sum(cpu_seconds(process.pid) for process in processes) - cpu_before
    peaks = [peak_rss_kib(process.pid) // 1024 for process in processes]
    for process in processes:
        process.stdin.close()
        process.wait()
    count = len(photos) * rounds
    print("workers=%d upsample=%d max_side=%d: %d photos (%d faces) in %.1f s = %.0f photos/min; "
          "%.2f CPU s per photo (%.0f photos per CPU-minute); start-up %.2f s; peak RSS per worker %s MiB; load %.1f"
          % (workers, upsample, max_side, count, faces[0], elapsed, count / elapsed * 60, cpu / count, count / cpu * 60,
             startup, peaks, os.getloadavg()[0]))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--upsample", type=int, default=1)
    parser.add_argument("--max-side", type=int, default=1280)
    parser.add_argument("--rounds", type=int, default=1)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        photos = build_photos(folder)
        print("%d photos, %d cores" % (len(photos), os.cpu_count()))
        for workers in [int(value) for value in options.workers.split(",")]:
            run(photos, workers, options.upsample, options.max_side, options.rounds)


if __name__ == "__main__":
    main()
