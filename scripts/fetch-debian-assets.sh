#!/usr/bin/env bash
# Extracts the few public images that Debian packages ship and that HeritageLens uses for its
# sample video and tests, into Samples/debian/ (not committed). The packages are downloaded, not
# installed; nothing else is kept.
#   astronaut.png  NASA portrait of Eileen Collins, public domain   (python3-skimage)
#   chelsea.png    a cat, CC0 by Stefan van der Walt                 (python3-skimage)
#   coffee.png, rocket.jpg, hubble_deep_field.jpg, brick.png, grass.png, gravel.png
#                  photos with no face, the hard face sequences' backgrounds (scikit-image's
#                  data: CC0 or public domain, see skimage/data/_fetchers.py in the package)
set -euo pipefail
cd "$(dirname "$0")/.."
dest=Samples/debian
want=(astronaut.png chelsea.png coffee.png rocket.jpg hubble_deep_field.jpg brick.png grass.png gravel.png)
missing=0
for f in "${want[@]}"; do [ -s "$dest/$f" ] || missing=1; done
[ "$missing" = 0 ] && exit 0

mkdir -p "$dest"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "setup: fetching public-domain test images from Debian's python3-skimage" >&2
# apt's download runs as the _apt user when it can, which needs a folder it may write.
chmod 0777 "$work"
if ! (cd "$work" && apt-get download -qq python3-skimage 2>/dev/null); then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  (cd "$work" && apt-get download -qq python3-skimage)
fi
dpkg -x "$work"/python3-skimage_*.deb "$work/x"
for f in "${want[@]}"; do
  cp "$work/x/usr/lib/python3/dist-packages/skimage/data/$f" "$dest/$f"
done
