"""Test-session settings for the whole repository.

Bytecode caches: a test session starts many fresh interpreters (the command
line's end-to-end tests, loky and Dask workers, import probes), and each one
imports scikit-learn, SciPy, pandas and often torch.  Where the environment
sets ``PYTHONDONTWRITEBYTECODE`` (as this project's CI machines do), no
interpreter writes ``.pyc`` files, so every one of them compiles those
packages from source again: 15-20 s of CPU per process, most of the suite's
start-up.  The session writes the caches (Python's default behaviour) so that
the interpreters it starts read them; the environment variable is left as it
is, so nothing else changes for the child processes.
"""

import sys

sys.dont_write_bytecode = False
