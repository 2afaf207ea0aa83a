#!/usr/bin/env python3
"""Ex-Eraser's face worker: dlib's HOG face detector and 128-d ResNet descriptor, long-lived.

Started once by `DlibWorkerFaceEmbedder` (Sources/EraserKit/Faces); loads the models once, then
answers one JSON line on standard output for each JSON line read on standard input, in order.

Start-up line (always the first line written):
    {"ready": true, "dlib": "20.0.1", "python": "3.11.7", "models": "/path/to/models"}
or, when dlib, Pillow, numpy or the model files are missing (then the worker exits with status 3):
    {"ready": false, "error": {"code": "unavailable", "message": "..."}}

Request:   {"id": 7, "path": "/photos/a.jpg", "upsample": 1, "max_side": 1280, "detect_side": 1024}
           (`upsample`, `max_side` and `detect_side` are optional: 1, 1280 and 1024)
Answer:    {"id": 7, "width": W, "height": H,
            "faces": [{"box": [x, y, w, h], "score": s, "descriptor": [128 floats]}]}
Failure:   {"id": 7, "error": {"code": "unreadable_image" | "bad_request" | "internal",
                               "message": "..."}}

Boxes are in pixels of the upright image (after its EXIF orientation is applied), clamped to the
image. Two sizes, because the HOG detector's cost grows with the pixels it scans while a
descriptor's does not (it is always a 150 px chip):
- the image is decoded with its long side at most `max_side` (a JPEG straight at a reduced DCT
  scale); the 5 landmarks and the descriptors are taken from this image;
- the detector runs on a copy scaled down to `detect_side` (when larger), and doubles the image
  (`upsample`, at most that many times) only while the doubled image stays within `detect_side`:
  a 512 px photo is scanned at 1024 px (faces from about 40 px), a 4032 px one at 1024 px
  (faces from about 80 of 1024 px, 8 % of the long side). Boxes are mapped back.
Nothing is downloaded: the models come from the `face_recognition_models` package, or from the
folder named by the environment variable KINDRED_FACE_MODELS.

pip packages: dlib-bin face_recognition_models numpy Pillow
"""

import json
import os
import platform
import sys

INSTALL_HINT = "pip install dlib-bin face_recognition_models numpy Pillow"
MODEL_FILES = ("shape_predictor_5_face_landmarks.dat", "dlib_face_recognition_resnet_model_v1.dat")
MAX_UPSAMPLE = 3


def emit(obj):
    sys.stdout.write(json.dumps(obj, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def unavailable(message):
    emit({"ready": False, "error": {"code": "unavailable", "message": message}})
    sys.exit(3)


def models_folder():
    explicit = os.environ.get("KINDRED_FACE_MODELS")
    if explicit:
        return explicit
    try:
        import face_recognition_models
    except ImportError:
        unavailable("the face_recognition_models package is not installed (" + INSTALL_HINT + ")")
    return os.path.join(os.path.dirname(face_recognition_models.__file__), "models")


def load():
    try:
        import numpy
        from PIL import Image, ImageOps
    except ImportError as error:
        unavailable("numpy or Pillow is not installed: %s (%s)" % (error, INSTALL_HINT))
    try:
        import dlib
    except ImportError as error:
        unavailable("dlib is not installed: %s (%s)" % (error, INSTALL_HINT))
    folder = models_folder()
    paths = [os.path.join(folder, name) for name in MODEL_FILES]
    for path in paths:
        if not os.path.isfile(path):
            unavailable("the model file %s is missing (%s)" % (path, INSTALL_HINT))
    try:
        detector = dlib.get_frontal_face_detector()
        predictor = dlib.shape_predictor(paths[0])
        recognizer = dlib.face_recognition_model_v1(paths[1])
    except RuntimeError as error:
        unavailable("the models in %s could not be loaded: %s" % (folder, error))
    return numpy, Image, ImageOps, dlib, detector, predictor, recognizer, folder


class BadRequest(Exception):
    pass


class Unreadable(Exception):
    pass


def main():
    numpy, Image, ImageOps, dlib, detector, predictor, recognizer, folder = load()
    emit({"ready": True, "dlib": dlib.__version__, "python": platform.python_version(), "models": folder})

    def read_image(path, max_side):
        """The image as RGB pixels (upright, long side at most `max_side`) and its full upright size."""
        try:
            image = Image.open(path)
            width, height = image.size
            if image.getexif().get(0x0112) in (5, 6, 7, 8):  # EXIF orientations that turn it a quarter
                width, height = height, width
            if image.format == "JPEG":
                # Decodes a large JPEG straight at a reduced size (much faster than a full decode).
                image.draft("RGB", (max_side, max_side))
            rgb = ImageOps.exif_transpose(image).convert("RGB")
        except FileNotFoundError:
            raise Unreadable("no such file")
        except IsADirectoryError:
            raise Unreadable("it is a folder")
        except PermissionError:
            raise Unreadable("permission denied")
        except Exception as error:  # Pillow raises many kinds (UnidentifiedImageError, OSError, ...)
            raise Unreadable(str(error) or type(error).__name__)
        return scaled(rgb, max_side), (width, height)

    def scaled(rgb, side):
        """`rgb` with its long side at most `side`."""
        long_side = max(rgb.size)
        if long_side <= side:
            return rgb
        factor = side / long_side
        size = (max(1, round(rgb.size[0] * factor)), max(1, round(rgb.size[1] * factor)))
        return rgb.resize(size, Image.BILINEAR)

    def integer(request, name, default, low, high):
        value = request.get(name, default)
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise BadRequest("`%s` must be an integer from %d to %d" % (name, low, high))
        return value

    def handle(request):
        if not isinstance(request, dict):
            raise BadRequest("a request is a JSON object")
        path = request.get("path")
        if not isinstance(path, str) or not path:
            raise BadRequest("`path` must be a non-empty string")
        upsample = integer(request, "upsample", 1, 0, MAX_UPSAMPLE)
        max_side = integer(request, "max_side", 1280, 64, 1 << 16)
        detect_side = integer(request, "detect_side", 1024, 64, 1 << 16)
        image, (width, height) = read_image(path, max_side)
        found = scaled(image, detect_side)
        steps = 0  # Each doubling costs about 4x: only while the doubled image fits `detect_side`.
        while steps < upsample and max(found.size) * (2 << steps) <= detect_side:
            steps += 1
        pixels = numpy.asarray(image)
        detection = pixels if found is image else numpy.asarray(found)
        # Detector pixels -> descriptor pixels -> the upright full-size image.
        to_x = pixels.shape[1] / detection.shape[1]
        to_y = pixels.shape[0] / detection.shape[0]
        scale_x = width / pixels.shape[1]
        scale_y = height / pixels.shape[0]
        rectangles, scores, _ = detector.run(detection, steps, 0.0)
        faces = []
        for rectangle, score in zip(rectangles, scores):
            if detection is not pixels:
                rectangle = dlib.rectangle(
                    round(rectangle.left() * to_x), round(rectangle.top() * to_y),
                    round((rectangle.right() + 1) * to_x) - 1, round((rectangle.bottom() + 1) * to_y) - 1)
            shape = predictor(pixels, rectangle)
            descriptor = recognizer.compute_face_descriptor(pixels, shape)
            left = min(max(0, round(rectangle.left() * scale_x)), width)
            top = min(max(0, round(rectangle.top() * scale_y)), height)
            right = min(max(0, round((rectangle.right() + 1) * scale_x)), width)
            bottom = min(max(0, round((rectangle.bottom() + 1) * scale_y)), height)
            faces.append({
                "box": [left, top, right - left, bottom - top],
                "score": round(float(score), 4),
                "descriptor": [float("%.7g" % value) for value in descriptor],
            })
        return {"width": width, "height": height, "faces": faces}

    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        identifier = None
        try:
            request = json.loads(line)
            if isinstance(request, dict):
                identifier = request.get("id")
            emit(dict({"id": identifier}, **handle(request)))
        except json.JSONDecodeError as error:
            emit({"id": None, "error": {"code": "bad_request", "message": "not JSON: %s" % error}})
        except BadRequest as error:
            emit({"id": identifier, "error": {"code": "bad_request", "message": str(error)}})
        except Unreadable as error:
            emit({"id": identifier, "error": {"code": "unreadable_image", "message": str(error)}})
        except Exception as error:  # dlib's RuntimeError, MemoryError: answer and keep serving
            emit({"id": identifier, "error": {"code": "internal", "message": "%s: %s" % (type(error).__name__, error)}})


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        pass
    except BrokenPipeError:
        pass
