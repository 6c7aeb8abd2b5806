#!/usr/bin/env python3
"""Writes the reference pictures the corpus test compares Memery's decoding with.

    python3 Tests/Corpus/make-references.py

For every file in images/ that expected.tsv marks `pillow`, Pillow's decode (first frame,
EXIF orientation applied, RGBA; see compare.py) is written to reference/<format>/<name>.png.
Files marked `golden` keep the reference already committed (Memery's own decode, reviewed;
expected.tsv says why Pillow is not the reference there); `refused` files need none.
Run it again after adding files to images/ and lines to expected.tsv.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import decode_with_pillow  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))
written = 0
for line in open(os.path.join(here, "expected.tsv")):
    if not line.strip() or line.startswith("#"):
        continue
    path, outcome = line.rstrip("\n").split("\t")[:2]
    if outcome != "pillow":
        continue
    decoded = decode_with_pillow(os.path.join(here, "images", path))
    if not decoded.ok:
        sys.exit(f"{path}: Pillow could not decode it ({decoded.error}); mark it otherwise in expected.tsv")
    target = os.path.join(here, "reference", path + ".png")
    os.makedirs(os.path.dirname(target), exist_ok=True)
    decoded.image.save(target, optimize=True)
    written += 1
print(f"wrote {written} references")

# Every frame of the animations the animation test reads, as browsers show them (Pillow
# composes each frame over what the last left, and clears a disposed frame to transparent):
# the frames stacked top to bottom in reference/frames/<path>.png, and their delays and
# loop count (the NETSCAPE count, absent: played once) in reference/frames/<path>.json.
import json  # noqa: E402
from PIL import Image, ImageSequence  # noqa: E402

# (iss634's 42 photo-like frames would weigh 3 MB here: the test checks them against libvips.
# dispose_bgnd.gif is left out: Pillow paints disposed frames black where browsers clear them.)
ANIMATIONS = ["gif/dispose_prev.gif", "gif/transparent_dispose.gif",
              "gif/animated_loop_interlaced.gif", "gif/missing_background.gif"]
for path in ANIMATIONS:
    with Image.open(os.path.join(here, "images", path)) as image:
        frames, delays = [], []
        for frame in ImageSequence.Iterator(image):
            frames.append(frame.convert("RGBA").copy())
            delays.append(int(frame.info.get("duration", 0)))
        loop = image.info.get("loop")
    strip = Image.new("RGBA", (frames[0].width, frames[0].height * len(frames)))
    for index, frame in enumerate(frames):
        strip.paste(frame, (0, index * frames[0].height))
    target = os.path.join(here, "reference", "frames", path)
    os.makedirs(os.path.dirname(target), exist_ok=True)
    strip.save(target + ".png", optimize=True)
    with open(target + ".json", "w") as sidecar:
        json.dump({"delays": delays, "loop": loop}, sidecar)
        sidecar.write("\n")
print(f"wrote {len(ANIMATIONS)} animation references")
