#!/usr/bin/env python3
"""Builds the face embedder's test photos into a folder, from real photos shipped in PyPI packages.

    python3 face_fixtures.py OUT_DIR

Sources (nothing is downloaded):
  * scikit-image's sample data: `astronaut.png` (Eileen Collins, one face), `coffee.png` and
    `chelsea.png` (a cup and a cat: no human face);
  * insightface's sample images (installed with `pip install --no-deps insightface`, only its data
    files are read, the package is never imported): `t1.jpg` (a group of six people) and
    `Tom_Hanks_54745.png` (one face, 112 x 112).

Writes (names fixed; the Swift tests rely on them):
  astronaut.png            the original, 512 x 512
  astronaut_crop.jpg       a 300 x 340 crop around the face, JPEG
  astronaut_flip.png       mirrored left to right
  astronaut_small.jpg      scaled to 60 % (face about 55 px)
  astronaut_large.jpg      scaled to 300 % (1536 px: the embedder scales it back down)
  astronaut_gray.png       grayscale
  astronaut_exif6.jpg      stored turned 90 degrees clockwise with EXIF orientation 6, so it shows upright
  group.jpg                six other people
  hanks.png                another person
  coffee.png, chelsea.png  no face
  not_an_image.jpg         text with a .jpg name
  truncated.jpg            the first 600 bytes of a JPEG
  empty.png                zero bytes

Prints one JSON line: {"ok": true} or {"ok": false, "missing": "package", "hint": "pip install ..."},
exiting 0 either way (2 on bad usage).
"""

import importlib.util
import json
import os
import sys


def missing(package, hint):
    print(json.dumps({"ok": False, "missing": package, "hint": hint}))
    sys.exit(0)


def package_folder(name):
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        return None
    return list(spec.submodule_search_locations)[0]


def main():
    if len(sys.argv) != 2:
        sys.stderr.write("usage: face_fixtures.py OUT_DIR\n")
        sys.exit(2)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    try:
        from PIL import Image
    except ImportError:
        missing("Pillow", "pip install Pillow")
    skimage = package_folder("skimage")
    if skimage is None:
        missing("scikit-image", "pip install scikit-image")
    insightface = package_folder("insightface")
    if insightface is None:
        missing("insightface", "pip install --no-deps insightface")
    sk_data = os.path.join(skimage, "data")
    if_images = os.path.join(insightface, "data", "images")
    for path in (os.path.join(sk_data, "astronaut.png"), os.path.join(if_images, "t1.jpg")):
        if not os.path.isfile(path):
            missing(path, "reinstall the package that should hold it")

    def save(image, name, **options):
        image.save(os.path.join(out, name), **options)

    astronaut = Image.open(os.path.join(sk_data, "astronaut.png")).convert("RGB")
    save(astronaut, "astronaut.png")
    save(astronaut.crop((40, 0, 340, 340)), "astronaut_crop.jpg", quality=92)
    save(astronaut.transpose(Image.FLIP_LEFT_RIGHT), "astronaut_flip.png")
    save(astronaut.resize((307, 307), Image.LANCZOS), "astronaut_small.jpg", quality=92)
    save(astronaut.resize((1536, 1536), Image.LANCZOS), "astronaut_large.jpg", quality=92)
    save(astronaut.convert("L"), "astronaut_gray.png")
    # Orientation 6 means "turn 90 degrees clockwise to show": store it turned the other way.
    turned = astronaut.transpose(Image.ROTATE_90)
    exif = Image.Exif()
    exif[0x0112] = 6
    save(turned, "astronaut_exif6.jpg", quality=92, exif=exif.tobytes())
    save(Image.open(os.path.join(if_images, "t1.jpg")).convert("RGB"), "group.jpg", quality=95)
    save(Image.open(os.path.join(if_images, "Tom_Hanks_54745.png")).convert("RGB"), "hanks.png")
    for name in ("coffee.png", "chelsea.png"):
        save(Image.open(os.path.join(sk_data, name)).convert("RGB"), name)
    with open(os.path.join(out, "not_an_image.jpg"), "w") as handle:
        handle.write("This is a text file with a .jpg name.\n")
    with open(os.path.join(out, "astronaut_crop.jpg"), "rb") as handle:
        head = handle.read(600)
    with open(os.path.join(out, "truncated.jpg"), "wb") as handle:
        handle.write(head)
    open(os.path.join(out, "empty.png"), "wb").close()
    print(json.dumps({"ok": True}))


if __name__ == "__main__":
    main()
