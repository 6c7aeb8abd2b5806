"""The Pillow peer of `memery quick anim.gif -o out.gif`: every frame of an animated GIF
with two captions in Memery's look (pillow_meme.py), written as an animated GIF with the
frames' own timing and loops (Pillow gives each frame a palette of its own)."""
import sys
from PIL import Image, ImageDraw, ImageSequence

from pillow_meme import caption

source, output, top, bottom = sys.argv[1:5]
with Image.open(source) as animation:
    frames, durations = [], []
    for frame in ImageSequence.Iterator(animation):
        picture = frame.convert("RGB")
        draw = ImageDraw.Draw(picture)
        caption(draw, picture, top, True)
        caption(draw, picture, bottom, False)
        frames.append(picture)
        durations.append(frame.info.get("duration", 0))
    loop = animation.info.get("loop")
options = {"save_all": True, "append_images": frames[1:], "duration": durations}
if loop is not None:
    options["loop"] = loop
frames[0].save(output, **options)
