#!/usr/bin/env bash
# Renders the README gallery: each mask on the public-domain portrait and each card's effect, in
# the low and the high tier, as two small contact sheets under Samples/gallery/.
# Needs the release build, Samples/debian/astronaut.png (scripts/fetch-debian-assets.sh), python3-pil.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=.build/release/heritage-lens
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p Samples/gallery "$work/snap"
for tier in low high; do
  for mask in ox dragon sheep monkey pig; do
    $bin process Samples/debian/astronaut.png --repeat 8 --mask "$mask" --tier "$tier" --no-cards \
      --snapshot-at 7 --snapshots "$work/snap" 2>/dev/null
    mv "$work/snap/heritage-lens-000007.png" "$work/mask-$mask-$tier.png"
  done
done
/usr/bin/python3 scripts/gallery/card_scenes.py "$work/cards"
for tier in low high; do
  # Six scenes, 12 frames each: snapshot each scene's last frame.
  $bin process "$work/cards" --repeat 12 --tier "$tier" --detector none \
    --snapshot-at 11 23 35 47 59 71 --snapshots "$work/snap" 2>/dev/null
  for i in 0 1 2 3 4 5; do
    mv "$work/snap/heritage-lens-$(printf %06d $((i * 12 + 11))).png" "$work/card-$i-$tier.png"
  done
done
/usr/bin/python3 - "$work" <<'PY'
import sys
from PIL import Image
work = sys.argv[1]
def sheet(names, crop, cell, path):
    rows = [[Image.open(f"{work}/{n}-{t}.png").crop(crop).resize(cell) for n in names] for t in ("low", "high")]
    out = Image.new("RGB", (cell[0] * len(names), cell[1] * 2))
    for r, row in enumerate(rows):
        for c, im in enumerate(row):
            out.paste(im, (c * cell[0], r * cell[1]))
    out.save(path, optimize=True)
sheet([f"mask-{m}" for m in ("ox", "dragon", "sheep", "monkey", "pig")], (120, 20, 360, 260), (180, 180),
      "Samples/gallery/masks.png")
sheet([f"card-{i}" for i in range(6)], (170, 30, 490, 460), (150, 200), "Samples/gallery/cards.png")
ids = ["lichun", "yushui", "jingzhe", "chunfen", "qingming", "guyu"]
row = Image.new("RGB", (6 * 150, 212), (255, 255, 255))
for k, name in enumerate(ids):
    row.paste(Image.open(f"Samples/cards/{name}.png").convert("RGB").resize((148, 208), Image.LANCZOS), (k * 150 + 1, 2))
row.save("Samples/gallery/six-cards.png", optimize=True)
PY
echo "wrote Samples/gallery/masks.png and Samples/gallery/cards.png (top row low tier, bottom row high), six-cards.png"
