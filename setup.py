"""The C kernels of ``fogofwar.core.bitsets`` and ``fogofwar.core.collector`` (everything
else is in pyproject.toml).

The extensions are optional: without a C compiler the package installs and runs on the
pure-Python forms of the same kernels (``fogofwar.core.bitsets.NATIVE`` and
``fogofwar.core.collector.NATIVE`` say which).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "fogofwar.core._bitsets",
            ["src/fogofwar/core/_bitsets.c"],
            extra_compile_args=["-O2"],
            optional=True,
        ),
        Extension(
            "fogofwar.core._collector",
            ["src/fogofwar/core/_collector.c"],
            extra_compile_args=["-O2"],
            optional=True,
        ),
    ]
)
