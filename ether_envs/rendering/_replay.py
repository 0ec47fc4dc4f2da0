"""The pictures of an HTML replay, stored small: :class:`TileDeltas`.

How a replay stores its pictures (measured for issue 19 on random games in the
default configurations; Ethnos, 4 players, has the largest pictures, 1,000 x
900 pixels, and the longest games):

* A 256-colour PNG per picture (the format before) costs about 62 KB (base64)
  per decision: 56 MB for the 900 decisions of Ethnos seed 4, 79 MB for the
  1,295 of seed 303. Any whole-picture format stays far from the 5 MB goal
  (first 52 pictures of seed 4: palette PNG 53 KB, lossless WebP 99 KB,
  WebP quality 90 80 KB, JPEG quality 90 142 KB per picture).
* Consecutive pictures differ little, but in several places: the highlighted
  row of the player to act moves, a card leaves a hand, a score changes. Only
  the bounding box of the changes, as lossless WebP: 24 KB per decision; only
  the changed 16 x 16-pixel tiles, grouped in runs: 9.3 KB.
* Most changed tiles show what was shown before (a row that loses its
  highlight looks as it did before it got it). Sending each distinct tile
  once and later copying it from where it was sent: 1.7 KB per decision over
  the whole Ethnos game (0.7 KB of images, 1.0 KB of the copy list), 1.8 KB
  for Ether Wars, 1.1 KB for Aetherspire, 2.1 KB for Etherium, still
  lossless. Aethermon: Collect's pictures change more (8.4 KB per decision)
  but its games are short (35 decisions at most in 500 seeds). Encoding takes
  about 6 ms (CPU) per picture, against 80-95 ms for the palette PNGs and
  about 250 ms to draw the picture.

So a replay is the first picture, then for every position a list of copies,
each a rectangle of whole tiles from one of the stored images (the first
picture, or the *sheet* of the tiles first seen at some position) to the same
place and size in the picture. The page repeats the copies on a canvas; no copy
scales, so the pictures shown are exactly ``render_rgb``'s. The images are
lossless WebP, which every current browser shows (PNG where this Pillow lacks
WebP, or for an image too large for WebP).
"""

from __future__ import annotations

import base64
import hashlib
import io

import numpy as np

TILE = 16
"""Edge of a tile in pixels. Smaller tiles send fewer unchanged pixels but need
more copies to describe, larger the reverse; 16 is best or close in every game
(bytes per decision, whole game; tile 8 / 16 / 20 / 24 / 32: Ethnos 5.9 / 1.74 /
- / 1.69 / 1.80 KB, Ether Wars - / 1.81 / 1.56 / 1.78 / 1.98 KB, Aetherspire
- / 1.10 / 1.13 / 1.47 / 1.60 KB, Aethermon: Collect - / 8.4 / 9.4 / 10.4 / 11.9 KB)."""

OP_FIELDS = 7
"""Integers per copy operation: ``image, src_col, src_row, cols, rows, dst_col, dst_row``
(in tiles; the copy is ``cols * TILE`` x ``rows * TILE`` pixels, clipped at the
picture's right and bottom edges)."""

_WEBP_MAX = 16383  # largest width or height WebP can store


class TileDeltas:
    """A sequence of same-sized RGB pictures as stored images plus, per picture,
    the tile copies that turn the previous picture into it.

    Add pictures in order with :meth:`add`; then :attr:`images` holds the
    encoded images (:meth:`data_uris` for a page) and :attr:`ops` one flat list
    of ints per picture, :data:`OP_FIELDS` per copy: ``image, src_col,
    src_row, cols, rows, dst_col, dst_row``, all in tiles of :attr:`tile`
    pixels. The first picture's list copies the whole first image; a picture
    equal to the previous one has an empty list. Replaying the copies of
    pictures ``0..k`` in order on a ``width`` x ``height`` canvas gives picture
    ``k`` exactly (lossless).

    Pictures are padded with black to whole tiles on the right and bottom; the
    copies may reach into that padding, which lies outside the picture.

    Args:
        tile: tile edge in pixels (>= 1).
        webp_method: WebP encoder effort, 0 (fast) to 6 (small).

    Attributes:
        width, height: picture size in pixels (``None`` before the first picture).
        images: encoded images (bytes), see :attr:`formats`.
        formats: ``"webp"`` or ``"png"`` per image.
        ops: the copies of each picture added so far.
    """

    def __init__(self, tile: int = TILE, webp_method: int = 4):
        if tile < 1:
            raise ValueError(f"tile must be >= 1 pixel, got {tile}")
        self.tile = int(tile)
        self.webp_method = int(webp_method)
        self.width: int | None = None
        self.height: int | None = None
        self.images: list[bytes] = []
        self.formats: list[str] = []
        self.ops: list[list[int]] = []
        self._sources: list[np.ndarray] = []  # tiles view of every image: (rows, cols, T, T, 3)
        self._where: dict[bytes, tuple[int, int, int]] = {}  # tile digest -> (image, col, row)
        self._previous: np.ndarray | None = None
        from PIL import features

        self._webp = bool(features.check("webp"))

    # -- helpers ------------------------------------------------------------------
    def _tiles(self, a: np.ndarray) -> np.ndarray:
        t = self.tile
        return a.reshape(a.shape[0] // t, t, a.shape[1] // t, t, 3).swapaxes(1, 2)

    @staticmethod
    def _digest(tile: np.ndarray) -> bytes:
        return hashlib.blake2b(tile.tobytes(), digest_size=16).digest()

    def _store(self, image: np.ndarray) -> int:
        """Encode ``image`` (whole tiles), remember its tiles; returns its index."""
        from PIL import Image

        fmt = "webp" if self._webp and max(image.shape[:2]) <= _WEBP_MAX else "png"
        buf = io.BytesIO()
        if fmt == "webp":
            Image.fromarray(image).save(buf, format="WEBP", lossless=True, quality=100, method=self.webp_method)
        else:
            Image.fromarray(image).save(buf, format="PNG", optimize=True)
        self.images.append(buf.getvalue())
        self.formats.append(fmt)
        self._sources.append(self._tiles(image))
        return len(self.images) - 1

    def _holds(self, src: tuple[int, int, int], tile: np.ndarray) -> bool:
        """Whether image ``src[0]`` has ``tile`` at column ``src[1]``, row ``src[2]``."""
        tiles = self._sources[src[0]]
        return src[2] < tiles.shape[0] and src[1] < tiles.shape[1] and np.array_equal(tiles[src[2], src[1]], tile)

    # -- adding pictures -------------------------------------------------------------
    def add(self, picture: np.ndarray) -> None:
        """Append the next picture.

        Args:
            picture: uint8 array of shape ``(height, width, 3)``, the same for
                every picture.

        Raises:
            ValueError: a different shape than the first picture, or not RGB.
        """
        picture = np.asarray(picture, dtype=np.uint8)
        if picture.ndim != 3 or picture.shape[2] != 3:
            raise ValueError(f"a picture is an (height, width, 3) array, got shape {picture.shape}")
        if self.width is None:
            self.height, self.width = picture.shape[:2]
        elif picture.shape[:2] != (self.height, self.width):
            raise ValueError(f"picture of shape {picture.shape}, the first was ({self.height}, {self.width}, 3)")
        t = self.tile
        rows, cols = -(-self.height // t), -(-self.width // t)
        padded = np.zeros((rows * t, cols * t, 3), np.uint8)
        padded[:self.height, :self.width] = picture
        tiles = self._tiles(padded)
        if self._previous is None:
            self._store(padded)
            for r in range(rows):
                for c in range(cols):
                    self._where.setdefault(self._digest(tiles[r, c]), (0, c, r))
            self.ops.append([0, 0, 0, cols, rows, 0, 0])
        else:
            changed = (tiles != self._tiles(self._previous)).any(axis=(2, 3, 4))
            self.ops.append(self._copies(padded, tiles, changed))
        self._previous = padded

    def _copies(self, padded: np.ndarray, tiles: np.ndarray, changed: np.ndarray) -> list[int]:
        """The copies that update the ``changed`` tiles to ``tiles``; new tiles go
        to a new sheet image."""
        # 1. Where each changed tile comes from: the tile after its left or upper
        #    neighbour's source (so copies grow into rectangles), else any image
        #    that showed it, else None (new).
        source: dict[tuple[int, int], tuple[int, int, int] | None] = {}
        digests: dict[tuple[int, int], bytes] = {}
        runs: list[list] = []  # [image or None, col, row, cols, src_col, src_row], one tile row each
        for r, c in zip(*(v.tolist() for v in np.nonzero(changed))):
            tile = tiles[r, c]
            src = None
            for near, step in (((r, c - 1), (1, 0)), ((r - 1, c), (0, 1))):
                n = source.get(near)
                if n is not None and self._holds((n[0], n[1] + step[0], n[2] + step[1]), tile):
                    src = (n[0], n[1] + step[0], n[2] + step[1])
                    break
            if src is None:
                digests[(r, c)] = self._digest(tile)
                src = self._where.get(digests[(r, c)])
            source[(r, c)] = src
            last = runs[-1] if runs else None
            if (last is not None and last[2] == r and last[1] + last[3] == c
                    and (last[0] is None if src is None
                         else last[0] == src[0] and last[5] == src[2] and last[4] + last[3] == src[1])):
                last[3] += 1
            else:
                runs.append([None, c, r, 1, 0, 0] if src is None else [src[0], c, r, 1, src[1], src[2]])
        # 2. Stack runs of the same columns and source into rectangles.
        rects: list[list] = []  # [image or None, col, row, cols, rows, src_col, src_row]
        open_below: dict[tuple[int, int, int], int] = {}  # (col, cols, next row) -> index in rects
        for image, c, r, n, sc, sr in runs:
            k = open_below.pop((c, n, r), None)
            if k is not None:
                above = rects[k]
                if above[0] is None if image is None else (
                        above[0] == image and above[5] == sc and above[6] + above[4] == sr):
                    above[4] += 1
                    open_below[(c, n, r + 1)] = k
                    continue
            rects.append([image, c, r, n, 1, sc, sr])
            open_below[(c, n, r + 1)] = len(rects) - 1
        # 3. New rectangles onto one sheet: shelves as wide as the picture, tallest first.
        new = sorted((m for m in rects if m[0] is None), key=lambda m: -m[4])
        if new:
            width = tiles.shape[1]
            x = y = shelf = 0
            for m in new:
                if x + m[3] > width:
                    x, y, shelf = 0, y + shelf, 0
                m[5], m[6] = x, y
                x, shelf = x + m[3], max(shelf, m[4])
            t = self.tile
            sheet = np.zeros(((y + shelf) * t, max(m[5] + m[3] for m in new) * t, 3), np.uint8)
            for m in new:
                _, c, r, n, h, sc, sr = m
                sheet[sr * t:(sr + h) * t, sc * t:(sc + n) * t] = padded[r * t:(r + h) * t, c * t:(c + n) * t]
            k = self._store(sheet)
            for m in new:
                m[0] = k
                _, c, r, n, h, sc, sr = m
                for dr in range(h):
                    for dc in range(n):
                        self._where.setdefault(digests[(r + dr, c + dc)], (k, sc + dc, sr + dr))
        return [v for m in rects for v in (m[0], m[5], m[6], m[3], m[4], m[1], m[2])]

    # -- output -----------------------------------------------------------------
    def data_uris(self) -> list[str]:
        """The images as ``data:`` URIs (base64)."""
        return [f"data:image/{fmt};base64," + base64.b64encode(b).decode("ascii")
                for fmt, b in zip(self.formats, self.images)]
