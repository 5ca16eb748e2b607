"""The plane encoders' array: :meth:`PlaneEncoder.blank` and :meth:`PlaneEncoder.finish`
give every channel its value, whatever memory the array came from."""

from __future__ import annotations

import numpy as np
import pytest

from fogofwar.core.game.features import PlaneEncoder


class _Planes(PlaneEncoder):
    def encode(self, view: object) -> np.ndarray:  # pragma: no cover - not used here
        raise NotImplementedError


@pytest.mark.parametrize("scalars", ["planes", "folded"])
@pytest.mark.parametrize("static_planes", [0, 2])
def test_blank_then_finish_sets_every_channel(scalars: str, static_planes: int) -> None:
    # The scalar channels in "planes" mode are not zeroed by blank() (finish writes each
    # whole): after finish, the array is exactly the static planes, zeros, the marks
    # made, and the scalars, even when the memory it reuses held other values.
    rng = np.random.default_rng(3)
    enc = _Planes([f"p{i}" for i in range(5)], [f"s{i}" for i in range(7)], 3, 4, scalars=scalars)  # type: ignore[arg-type]
    static = rng.random((static_planes, 12)).astype(np.float32) if static_planes else None
    values = rng.random(7).astype(np.float32)
    for _ in range(3):  # new arrays over freed memory full of earlier values
        garbage = [
            np.full(enc.shape, 7.0, dtype=np.float32).reshape(enc.shape[0], 12) for _ in range(4)
        ]
        del garbage
        out = enc.blank(static)
        out[4, 5] = 1.0  # a mark on a plane
        got = enc.finish(out, values)
        expected = np.zeros((enc.shape[0], 12), dtype=np.float32)
        if static is not None:
            expected[:static_planes] = static
        expected[4, 5] = 1.0
        if scalars == "planes":
            expected[5:] = values[:, None]
        else:
            expected[5:].reshape(-1)[:7] = values
        assert got.shape == enc.shape
        assert np.array_equal(got, expected.reshape(enc.shape))
