"""The C kernels of ``fogofwar.core.bitsets`` (everything else is in pyproject.toml).

The extension is optional: without a C compiler the package installs and runs on the
pure-Python forms of the same kernels (``fogofwar.core.bitsets.NATIVE`` says which).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "fogofwar.core._bitsets",
            ["src/fogofwar/core/_bitsets.c"],
            extra_compile_args=["-O2"],
            optional=True,
        )
    ]
)
