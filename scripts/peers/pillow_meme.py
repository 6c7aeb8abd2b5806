"""The Pillow peer of `memery quick`: decode a JPEG, two captions in Memery's look, JPEG q90.

The look is Memery's default: Bebas Neue from height/7 down, within a box 94 % of the width
and a quarter of the height, one line or two broken at the most balanced space, a round
outline of size/20 (at least 1 px), lines spaced so that their outlines do not touch."""
import sys
from PIL import Image, ImageDraw, ImageFont

FONT = "/usr/share/fonts/opentype/bebas-neue/BebasNeue-Bold.otf"


def lines_for(draw, text, font):
    """One line, or two broken at the space that makes the longer line shortest."""
    words = text.split(" ")
    options = [[text]] + [[" ".join(words[:i]), " ".join(words[i:])] for i in range(1, len(words))]
    return min(options, key=lambda ls: (max(draw.textlength(l, font=font) for l in ls), len(ls)))


def caption(draw, image, text, top):
    box_w, box_h = image.width * 0.94, image.height * 0.25
    size = image.height // 7
    while True:
        font = ImageFont.truetype(FONT, size)
        stroke = max(1, round(size / 20))
        one = draw.textlength(text, font=font) + 2 * stroke <= box_w
        lines = [text] if one else lines_for(draw, text, font)
        ascent, descent = font.getmetrics()
        line_h = ascent + descent + 2 * stroke
        widest = max(draw.textlength(l, font=font) for l in lines) + 2 * stroke
        if (widest <= box_w and line_h * len(lines) <= box_h) or size <= 10:
            break
        size = max(10, int(size * 0.95))
    y = image.height * 0.02 + stroke if top else image.height * 0.98 - stroke - line_h * len(lines)
    for line in lines:
        width = draw.textlength(line, font=font)
        draw.text(((image.width - width) / 2, y), line, font=font, fill="white", stroke_width=stroke, stroke_fill="black")
        y += line_h


if __name__ == "__main__":
    source, output, top, bottom = sys.argv[1:5]
    image = Image.open(source).convert("RGB")
    draw = ImageDraw.Draw(image)
    caption(draw, image, top, True)
    caption(draw, image, bottom, False)
    image.save(output, quality=90)
