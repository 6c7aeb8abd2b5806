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
