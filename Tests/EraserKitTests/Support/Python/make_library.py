#!/usr/bin/env python3
"""Writes photos with Pillow for EraserKit's library tests: JPEG (EXIF in APP1) and PNG (eXIf).

Reads a JSON request on standard input:
  {"root": "/tmp/lib", "files": [{
      "path": "2024/a.jpg", "format": "JPEG" | "PNG", "size": [w, h],
      "datetime_original": "2024:07:14 18:30:05",      (optional)
      "offset_time_original": "+09:00",               (optional)
      "pixel_dimensions": [w, h],                      (optional, Exif IFD 0xA002/0xA003)
      "gps": {"lat_ref": "S", "lat": [[33,1],[51,1],[3590,100]],
              "lon_ref": "W", "lon": [[151,1],[12,1],[4000,100]],
              "alt_ref": 1, "alt": [125,10]},          (optional; alt_ref/alt optional)
      "mtime": 1700000000.25                           (optional)
  }]}
and writes each file under root. Prints {"written": [paths]} on standard output.
Exits 3 when Pillow is missing, so the caller can tell that from a failure.
"""
import json
import os
import sys

try:
    from PIL import ExifTags, Image, TiffImagePlugin
except ImportError:
    sys.stderr.write("Pillow is not installed (pip install Pillow)\n")
    sys.exit(3)


def rational(pair):
    return TiffImagePlugin.IFDRational(pair[0], pair[1])


def exif_for(spec):
    exif = Image.Exif()
    exif[0x0110] = "Pillow Fixture"  # Model
    ifd = exif.get_ifd(ExifTags.IFD.Exif)
    if "datetime_original" in spec:
        ifd[0x9003] = spec["datetime_original"]
    if "offset_time_original" in spec:
        ifd[0x9011] = spec["offset_time_original"]
    if "pixel_dimensions" in spec:
        ifd[0xA002], ifd[0xA003] = spec["pixel_dimensions"]
    gps = spec.get("gps")
    if gps:
        info = exif.get_ifd(ExifTags.IFD.GPSInfo)
        info[0x0000] = b"\x02\x03\x00\x00"
        info[0x0001] = gps["lat_ref"]
        info[0x0002] = tuple(rational(p) for p in gps["lat"])
        info[0x0003] = gps["lon_ref"]
        info[0x0004] = tuple(rational(p) for p in gps["lon"])
        if "alt" in gps:
            info[0x0005] = bytes([gps.get("alt_ref", 0)])
            info[0x0006] = rational(gps["alt"])
    return exif


def main():
    request = json.load(sys.stdin)
    root = request["root"]
    written = []
    for spec in request["files"]:
        path = os.path.join(root, spec["path"])
        os.makedirs(os.path.dirname(path), exist_ok=True)
        width, height = spec.get("size", [64, 48])
        image = Image.new("RGB", (width, height))
        # A gradient, so two files of one size still differ.
        image.putdata([((x * 7 + len(written) * 31) % 256, (y * 5) % 256, (x + y) % 256)
                       for y in range(height) for x in range(width)])
        image.save(path, format=spec.get("format", "JPEG"), exif=exif_for(spec))
        if "mtime" in spec:
            # Whole microseconds: a float's nanoseconds would carry its rounding error.
            nanos = round(spec["mtime"] * 1_000_000) * 1000
            os.utime(path, ns=(nanos, nanos))
        written.append(spec["path"])
    json.dump({"written": written}, sys.stdout)


if __name__ == "__main__":
    main()
