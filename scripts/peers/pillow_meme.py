"""The Pillow peer of `memery quick`: decode a JPEG, two outlined captions, JPEG q90."""
import sys
from PIL import Image, ImageDraw, ImageFont

source, output, top, bottom = sys.argv[1:5]
image = Image.open(source).convert("RGB")
draw = ImageDraw.Draw(image)
size = image.height // 7
font = ImageFont.truetype("/usr/share/fonts/opentype/bebas-neue/BebasNeue-Bold.otf", size)
for text, y in ((top, image.height * 0.02), (bottom, image.height * 0.98 - size)):
    width = draw.textlength(text, font=font)
    draw.text(((image.width - width) / 2, y), text, font=font, fill="white", stroke_width=size // 8, stroke_fill="black")
image.save(output, quality=90)
