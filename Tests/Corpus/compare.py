#!/usr/bin/env python3
"""Compare Memery's image decoding with Pillow's over the test corpus.

Usage:
    python3 Tests/Corpus/compare.py MEMERY_BINARY [--json] [--images DIR] [--jobs N]

For every file under Tests/Corpus/images (or --images DIR) this script

  * decodes it with Memery:
        memery new x --image FILE --store STORE
        memery export x -o OUT.png --store STORE
    (a fresh temporary store per file, MEMERY_IMAGE_FORMATS unset so only the
    default formats are accepted; exit status 1 with "error: ..." is a
    refusal, which is recorded, not treated as a failure of the script);
  * decodes it with Pillow: Image.open, seek(0) (first frame),
    ImageOps.exif_transpose, convert("RGBA");
  * if both decoded, compares the two RGBA images: same size, and the maximum
    and mean absolute per-channel difference over R, G, B and A. Pixels whose
    alpha is 0 count as equal whatever their colour (their RGB is zeroed in
    both images before comparing). It also reports "pmax", the maximum
    difference once both images are premultiplied by alpha: a large max with
    a small pmax means the colours differ only where they are nearly
    transparent (e.g. a decoder that keeps 8-bit premultiplied pixels).

One adjustment is made to Pillow's side: convert("RGBA") clips 16-bit
greyscale ("I;16" modes) to 0..255 instead of scaling it, so those images are
scaled to 8 bits (value >> 8) first, keeping the alpha Pillow derives from tRNS.

It prints one line per file and a summary; with --json it prints one JSON
document instead. Requires only Python 3.8+ and Pillow.

Outcome of each file ("status"):
  match           both decoded, same size, mean <= MEAN_LIMIT and max <= MAX_LIMIT
  differ          both decoded, same size, beyond those limits
  size-mismatch   both decoded, different sizes
  memery-refused  Memery refused (or failed), Pillow decoded
  pillow-refused  Pillow refused, Memery decoded
  both-refused    neither decoded
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from PIL import Image, ImageChops, ImageOps, ImageStat

# A file "matches" when both limits hold. JPEG decoders legitimately differ by
# a few levels (IDCT and chroma upsampling), hence the slack.
MEAN_LIMIT = 2.0
MAX_LIMIT = 16

# Seconds one Memery command may take before the file counts as a hang.
MEMERY_TIMEOUT = 60

DEFAULT_IMAGES = Path(__file__).resolve().parent / "images"


# ---------------------------------------------------------------------------
# Decoding


class Decoded:
    """The outcome of one decoder on one file: an RGBA image, or an error."""

    def __init__(self, image=None, error=None):
        self.image = image
        self.error = error

    @property
    def ok(self):
        return self.image is not None

    def describe(self):
        if self.ok:
            return "%dx%d" % self.image.size
        return self.error


def first_line(text):
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    # Prefer the "error: ..." line if the tool printed more than one line.
    for line in lines:
        if line.startswith("error:"):
            return line
    return lines[0] if lines else ""


# Memery runs with its default set of accepted formats: a MEMERY_IMAGE_FORMATS
# in the caller's environment would widen it.
MEMERY_ENV = {k: v for k, v in os.environ.items() if k != "MEMERY_IMAGE_FORMATS"}


def decode_with_memery(binary, path):
    with tempfile.TemporaryDirectory(prefix="memery-corpus-") as tmp:
        store = os.path.join(tmp, "store")
        out = os.path.join(tmp, "out.png")
        commands = [
            [binary, "new", "x", "--image", str(path), "--store", store],
            [binary, "export", "x", "-o", out, "--store", store],
        ]
        for command in commands:
            try:
                result = subprocess.run(
                    command,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    env=MEMERY_ENV,
                    timeout=MEMERY_TIMEOUT,
                )
            except subprocess.TimeoutExpired:
                return Decoded(error="timeout after %ds (%s)" % (MEMERY_TIMEOUT, command[1]))
            if result.returncode != 0:
                message = first_line(result.stderr.decode("utf-8", "replace"))
                if result.returncode != 1:
                    # Anything but a clean refusal (exit 1) is worth flagging:
                    # a usage error, a damaged store, or a crash (negative = signal).
                    message = "exit %d (%s): %s" % (result.returncode, command[1], message)
                return Decoded(error=message or "exit %d" % result.returncode)
        try:
            with Image.open(out) as image:
                return Decoded(image=image.convert("RGBA"))
        except Exception as exc:  # the export itself is unreadable
            return Decoded(error="unreadable export: %s" % exc)


def pillow_to_rgba(image):
    """convert("RGBA"), but scaling 16-bit greyscale instead of clipping it."""
    if image.mode.startswith("I;16"):
        alpha = image.convert("RGBA").getchannel("A")  # Pillow applies tRNS here
        grey = image.convert("I").point(lambda v: v / 256).convert("L")
        return Image.merge("RGBA", (grey, grey, grey, alpha))
    return image.convert("RGBA")


def decode_with_pillow(path):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with Image.open(path) as image:
                image.seek(0)
                image = ImageOps.exif_transpose(image)
                return Decoded(image=pillow_to_rgba(image))
    except Exception as exc:
        return Decoded(error="%s: %s" % (type(exc).__name__, exc))


# ---------------------------------------------------------------------------
# Comparison


def without_hidden_colour(image):
    """Zero the RGB of fully transparent pixels, so their colour doesn't count."""
    visible = image.getchannel("A").point(lambda a: 255 if a else 0)
    blank = Image.new("RGBA", image.size, (0, 0, 0, 0))
    return Image.composite(image, blank, visible)


def difference(a, b):
    """Max and mean absolute channel difference of two same-size RGBA images,
    and the max difference of their premultiplied forms."""
    diff = ImageChops.difference(without_hidden_colour(a), without_hidden_colour(b))
    max_diff = max(high for _, high in diff.getextrema())
    mean_diff = sum(ImageStat.Stat(diff).mean) / 4
    premultiplied = ImageChops.difference(a.convert("RGBa"), b.convert("RGBa"))
    premultiplied_max = max(high for _, high in premultiplied.getextrema())
    return max_diff, mean_diff, premultiplied_max


def compare_file(binary, images_dir, path):
    memery = decode_with_memery(binary, path)
    pillow = decode_with_pillow(path)
    relative = path.relative_to(images_dir).as_posix()
    record = {
        "path": relative,
        "format": path.relative_to(images_dir).parts[0],
        # Messages name the file; shorten that to its place in the corpus.
        "memery": memery.describe().replace(str(path), relative),
        "pillow": pillow.describe().replace(str(path), relative),
        "max": None,
        "mean": None,
        "pmax": None,
    }
    if memery.ok and pillow.ok:
        if memery.image.size != pillow.image.size:
            record["status"] = "size-mismatch"
        else:
            max_diff, mean_diff, premultiplied_max = difference(memery.image, pillow.image)
            record["max"] = max_diff
            record["mean"] = round(mean_diff, 3)
            record["pmax"] = premultiplied_max
            close = mean_diff <= MEAN_LIMIT and max_diff <= MAX_LIMIT
            record["status"] = "match" if close else "differ"
    elif pillow.ok:
        record["status"] = "memery-refused"
    elif memery.ok:
        record["status"] = "pillow-refused"
    else:
        record["status"] = "both-refused"
    return record


# ---------------------------------------------------------------------------
# Reporting

STATUSES = ["match", "differ", "size-mismatch", "memery-refused", "pillow-refused", "both-refused"]


def summarize(records):
    summary = {}
    for record in records:
        by_status = summary.setdefault(record["format"], {s: 0 for s in STATUSES})
        by_status[record["status"]] += 1
    return summary


def print_text(records, summary):
    width = max(len(r["path"]) for r in records)
    for r in records:
        diff = ""
        if r["max"] is not None:
            diff = "  max=%d mean=%.3f pmax=%d" % (r["max"], r["mean"], r["pmax"])
        print("%-*s  %-14s  memery: %s | pillow: %s%s"
              % (width, r["path"], r["status"], r["memery"], r["pillow"], diff))
    print()
    print("Summary (match = mean <= %g and max <= %d):" % (MEAN_LIMIT, MAX_LIMIT))
    header = "%-8s" % "format" + "".join("%16s" % s for s in STATUSES)
    print(header)
    totals = {s: 0 for s in STATUSES}
    for fmt in sorted(summary):
        counts = summary[fmt]
        print("%-8s" % fmt + "".join("%16d" % counts[s] for s in STATUSES))
        for s in STATUSES:
            totals[s] += counts[s]
    print("%-8s" % "total" + "".join("%16d" % totals[s] for s in STATUSES))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("memery", help="path to the memery executable")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    parser.add_argument("--images", type=Path, default=DEFAULT_IMAGES,
                        help="corpus folder (default: %(default)s)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="files decoded in parallel (default: %(default)s)")
    args = parser.parse_args()

    binary = shutil.which(args.memery) or os.path.abspath(args.memery)
    if not os.access(binary, os.X_OK):
        parser.error("not an executable: %s" % args.memery)
    images_dir = args.images.resolve()
    files = sorted(p for p in images_dir.rglob("*") if p.is_file())
    if not files:
        parser.error("no files under %s" % images_dir)

    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        records = list(pool.map(lambda p: compare_file(binary, images_dir, p), files))
    summary = summarize(records)

    if args.json:
        json.dump({"mean_limit": MEAN_LIMIT, "max_limit": MAX_LIMIT,
                   "files": records, "summary": summary}, sys.stdout, indent=2)
        print()
    else:
        print_text(records, summary)


if __name__ == "__main__":
    main()
