"""Shared pytest configuration.

Hypothesis runs with no deadline (CI machines are slow and shared) and derandomized
under CI, so a red build is reproducible.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import settings

from fogofwar.core.files import offer_data_folders

settings.register_profile("ci", deadline=None, derandomize=True, max_examples=100)
settings.register_profile("dev", deadline=None, max_examples=100)
settings.load_profile("ci" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture(autouse=True)
def _no_data_folders_left_over() -> Iterator[None]:
    """A server's data folders (``serve --data``) are the process's: a test that made a
    server with some must not leave them to the next test, whose file names they would
    otherwise answer."""
    yield
    offer_data_folders([])
